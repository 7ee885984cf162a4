# The docs stay true: every command README.md and docs/*.md quote with its output is run again
# and compared with the text (scripts/dev/check-docs.py; docs/developing.md, "Docs that stay true").
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME docs_check
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/dev/check-docs.py --roofcast $<TARGET_FILE:roofcast>)
  set_tests_properties(docs_check PROPERTIES LABELS docs TIMEOUT 300)
  # The check fails on text that no longer matches (an inline figure and a session's output).
  add_test(NAME docs_check_catches_stale_text
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/dev/check-docs.py --roofcast $<TARGET_FILE:roofcast>
                   ${CMAKE_CURRENT_SOURCE_DIR}/docs/stale-example.md)
  set_tests_properties(docs_check_catches_stale_text PROPERTIES LABELS docs PASS_REGULAR_EXPRESSION "2 of 2 quoted outputs differ")
else()
  message(STATUS "roofcast: no python3; skipping the docs check (docs_check)")
endif()
