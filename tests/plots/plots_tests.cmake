# Tests of plots/ and of `roofcast plot` / `roofcast report` (included from tests/CMakeLists.txt).
roofcast_add_test(plots_tests
  SOURCES plots/roofline_chart_test.cpp plots/quadrant_chart_test.cpp plots/validation_entries_test.cpp
          plots/report_test.cpp plots/kernel_labels_test.cpp plots/roofline_layout_test.cpp plots/chart_text_test.cpp plots/chart_checks.cpp
          plots/text_boxes.cpp plots/xml_tree.cpp
  LIBRARIES roofcast::plot_files roofcast::bundled_data fmt::fmt)
# kernel_labels_test checks helpers internal to plots/.
target_include_directories(plots_tests PRIVATE ${PROJECT_SOURCE_DIR}/plots/src)
target_compile_definitions(plots_tests PRIVATE ROOFCAST_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

roofcast_add_test(plot_command_tests
  SOURCES plots/plot_command_test.cpp plots/hostile_names_test.cpp plots/xml_tree.cpp support/run_command.cpp
  LIBRARIES nlohmann_json::nlohmann_json)
add_dependencies(plot_command_tests roofcast)

# The HTML report in headless Chromium: SKIP (77) where chromium is not installed.
add_test(NAME plots_report_in_browser
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/plots/report_in_browser.sh $<TARGET_FILE:roofcast>)
add_test(NAME plots_report_in_browser_catches_errors
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/plots/report_in_browser.sh $<TARGET_FILE:roofcast> --self-test)
set_tests_properties(plots_report_in_browser plots_report_in_browser_catches_errors
                     PROPERTIES SKIP_RETURN_CODE 77 LABELS browser TIMEOUT 300)
