# Installs the build into a temporary prefix, runs the installed roofcast on the installed data,
# and builds a small project against the installed CMake package (tests/package/install_test.cmake).
add_test(NAME package_install
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/package-prefix
          -DCONSUMER_SOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/package/consumer
          -DCONSUMER_BINARY_DIR=${CMAKE_CURRENT_BINARY_DIR}/package-consumer
          -DGENERATOR=${CMAKE_GENERATOR} -DCXX_COMPILER=${CMAKE_CXX_COMPILER} -Dfmt_DIR=${fmt_DIR} -DTBB_DIR=${TBB_DIR}
          -DEXPECT_MAN_PAGES=$<BOOL:${ROOFCAST_HELP2MAN}>
          -P ${CMAKE_CURRENT_SOURCE_DIR}/package/install_test.cmake)
set_tests_properties(package_install PROPERTIES LABELS package TIMEOUT 300)
