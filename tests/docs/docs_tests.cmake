# The docs stay true: every command README.md and docs/*.md quote with its output is run again
# and compared with the text (scripts/dev/check-docs.py; docs/developing.md, "Docs that stay true").
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME docs_check
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/dev/check-docs.py --roofcast $<TARGET_FILE:roofcast>)
  set_tests_properties(docs_check PROPERTIES LABELS docs TIMEOUT 300)
else()
  message(STATUS "roofcast: no python3; skipping the docs check (docs_check)")
endif()
