# cmake -DBUILD_DIR= -DPREFIX= -DCONSUMER_SOURCE_DIR= -DCONSUMER_BINARY_DIR= -DGENERATOR= -DCXX_COMPILER=
#       -Dfmt_DIR= -DTBB_DIR= -DEXPECT_MAN_PAGES= -P install_test.cmake
# Fails (FATAL_ERROR) naming the step that went wrong.

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${code}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect_file path)
  if(NOT EXISTS ${path})
    message(FATAL_ERROR "the install has no ${path}")
  endif()
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${CONSUMER_BINARY_DIR})
run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})

expect_file(${PREFIX}/bin/roofcast)
expect_file(${PREFIX}/share/roofcast/devices/thesis-gtx-660.json)
expect_file(${PREFIX}/share/roofcast/profiles/thesis-redblack.json)
expect_file(${PREFIX}/include/roofcast/model/thesis_prediction.hpp)
if(EXPECT_MAN_PAGES)
  expect_file(${PREFIX}/share/man/man1/roofcast.1)
  expect_file(${PREFIX}/share/man/man1/roofcast-predict.1)
  # A subcommand's page is its own: titled and named after it, with its own description, and the
  # docs it cites are installed.
  file(READ ${PREFIX}/share/man/man1/roofcast-predict.1 page)
  if(NOT page MATCHES "\\.TH ROOFCAST-PREDICT \"1\"" OR NOT page MATCHES "roofcast-predict \\\\- predict kernel runtimes"
     OR page MATCHES "docs/model\\.md")
    message(FATAL_ERROR "roofcast-predict.1 is not titled and named after roofcast predict:\n${page}")
  endif()
endif()
expect_file(${PREFIX}/share/doc/roofcast/docs/pipes-model.md)

# The installed binary, away from the build tree, on the installed data.
run_step("the installed roofcast predict" ${PREFIX}/bin/roofcast predict --model thesis
         --profile ${PREFIX}/share/roofcast/profiles/thesis-redblack.json
         --device ${PREFIX}/share/roofcast/devices/thesis-gtx-660.json)
if(NOT step_output MATCHES "sor_red")
  message(FATAL_ERROR "the installed roofcast predicted no sor_red:\n${step_output}")
endif()

# Companions: the installed roofcast looks for roofcast-bench (or the HIP build, roofcast-bench-hip)
# in bin/ and then libexec/roofcast.
if(NOT EXISTS ${PREFIX}/bin/roofcast-bench AND NOT EXISTS ${PREFIX}/bin/roofcast-bench-hip)
  execute_process(COMMAND ${PREFIX}/bin/roofcast bench --output ${CONSUMER_BINARY_DIR}/bench.json
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(code EQUAL 0 OR NOT err MATCHES "libexec/roofcast")
    message(FATAL_ERROR "roofcast bench without roofcast-bench should fail naming libexec/roofcast:\n${out}${err}")
  endif()
endif()
if(EXISTS ${PREFIX}/libexec/roofcast/libroofcast_injection.so)
  execute_process(COMMAND ${PREFIX}/bin/roofcast profile --list-metrics --chip gh100
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(err MATCHES "was not built")
    message(FATAL_ERROR "the installed roofcast does not find roofcast-cupti in libexec/roofcast:\n${err}")
  endif()
endif()

# A project of its own, built against the installed package.
run_step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${CONSUMER_BINARY_DIR}
         -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${PREFIX} -Dfmt_DIR=${fmt_DIR} -DTBB_DIR=${TBB_DIR})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${CONSUMER_BINARY_DIR})
run_step("running the consumer" ${CONSUMER_BINARY_DIR}/roofcast_consumer)
if(NOT step_output MATCHES "memory-bound")
  message(FATAL_ERROR "the consumer printed an unexpected result:\n${step_output}")
endif()
message(STATUS "installed into ${PREFIX}, ran roofcast and built a find_package(roofcast) consumer")
