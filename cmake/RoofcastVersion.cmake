# roofcast::version: the project's version and, in a git checkout, `git describe` of the source
# tree at configure time, for `roofcast --version` and the provenance `roofcast bench` writes.
find_package(Git QUIET)
set(ROOFCAST_GIT_DESCRIBE "")
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --tags
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE ROOFCAST_GIT_DESCRIBE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in ${CMAKE_BINARY_DIR}/generated/roofcast/version.hpp @ONLY)
add_library(roofcast_version INTERFACE)
add_library(roofcast::version ALIAS roofcast_version)
target_include_directories(roofcast_version INTERFACE ${CMAKE_BINARY_DIR}/generated)
