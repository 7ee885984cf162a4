# The collector's tests (included from tests/CMakeLists.txt).
roofcast_add_test(profiler_tests
  SOURCES profiler/importers_test.cpp profiler/launch_records_test.cpp profiler/transfer_summary_test.cpp
          profiler/launch_sample_test.cpp profiler/output_pattern_test.cpp profiler/profile_merge_test.cpp
          profiler/spread_plan_test.cpp profiler/process_clock_test.cpp profiler/records_folder_test.cpp
          formats/measured_json_test.cpp
  LIBRARIES roofcast::profiler)
# The collector's record writer is plain C++: tested here without CUDA.
target_sources(profiler_tests PRIVATE profiler/record_writer_test.cpp support/run_command.cpp
                                      ${PROJECT_SOURCE_DIR}/profiler/cupti/injection/record_writer.cpp)
target_include_directories(profiler_tests PRIVATE ${PROJECT_SOURCE_DIR}/profiler/cupti/injection)
target_compile_definitions(profiler_tests PRIVATE ROOFCAST_PROFILER_SAMPLES_DIR="${PROJECT_SOURCE_DIR}/profiler/samples")

if(TARGET roofcast_cupti_host)
  # Offline: the Profiler Host API answers for chip GH100 without a GPU.
  roofcast_add_test(profiler_cupti_host_tests
    SOURCES profiler/metric_set_gh100_test.cpp
    LIBRARIES roofcast_cupti_host roofcast::profiler roofcast::model)
  roofcast_add_gpu_test(profiler_gpu_tests
    SOURCES profiler/profile_gpu_test.cpp support/run_command.cpp
    LIBRARIES roofcast::formats nlohmann_json::nlohmann_json)
  add_dependencies(profiler_gpu_tests roofcast roofcast_injection roofcast-profiler-test-app)
  # Two profiles into one --records-dir (issue 27).
  roofcast_add_gpu_test(profiler_records_dir_gpu_tests
    SOURCES profiler/records_dir_gpu_test.cpp support/run_command.cpp
    LIBRARIES roofcast::formats nlohmann_json::nlohmann_json)
  add_dependencies(profiler_records_dir_gpu_tests roofcast roofcast_injection roofcast-profiler-test-app)
  roofcast_add_gpu_test(collector_scale_gpu_tests
    SOURCES profiler/collector_scale_gpu_test.cpp support/run_command.cpp
    LIBRARIES roofcast::formats roofcast::profiler nlohmann_json::nlohmann_json)
  add_dependencies(collector_scale_gpu_tests roofcast roofcast_injection roofcast-fork-tree-test-app)
  # PyTorch programs (issue 31): SKIP where python3 has no PyTorch that sees the GPU.
  roofcast_add_gpu_test(collector_torch_gpu_tests NEEDS_PYTORCH
    SOURCES profiler/collector_torch_gpu_test.cpp support/run_command.cpp
    LIBRARIES roofcast::formats nlohmann_json::nlohmann_json)
  target_compile_definitions(collector_torch_gpu_tests PRIVATE ROOFCAST_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_dependencies(collector_torch_gpu_tests roofcast roofcast_injection)
  if(TARGET roofcast-mpi-ranks-test-app)
    roofcast_add_gpu_test(collector_mpi_gpu_tests
      SOURCES profiler/collector_mpi_gpu_test.cpp support/run_command.cpp
      LIBRARIES roofcast::formats nlohmann_json::nlohmann_json)
    target_compile_definitions(collector_mpi_gpu_tests PRIVATE ROOFCAST_MPIEXEC="${MPIEXEC_EXECUTABLE}")
    add_dependencies(collector_mpi_gpu_tests roofcast roofcast_injection roofcast-mpi-ranks-test-app)
  else()
    add_test(NAME collector_mpi_gpu_tests COMMAND sh -c "echo 'SKIP: no MPI found by find_package(MPI)'; exit 77")
    set_tests_properties(collector_mpi_gpu_tests PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
  endif()
endif()

roofcast_add_test(profiler_cli_tests
  SOURCES profiler/import_command_test.cpp profiler/profile_command_test.cpp profiler/merge_command_test.cpp
          support/run_command.cpp
  LIBRARIES roofcast::formats roofcast::profiler)
target_compile_definitions(profiler_cli_tests PRIVATE ROOFCAST_PROFILER_SAMPLES_DIR="${PROJECT_SOURCE_DIR}/profiler/samples")
add_dependencies(profiler_cli_tests roofcast)
if(TARGET roofcast_injection)
  add_dependencies(profiler_cli_tests roofcast_injection)  # profile_command_test runs `profile` with it
endif()
