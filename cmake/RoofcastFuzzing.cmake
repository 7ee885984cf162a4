# -DROOFCAST_BUILD_FUZZERS=ON (scripts/dev/fuzz.sh): every target of the build is compiled with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation, and the
# fuzz targets of tests/fuzz link libFuzzer. Needs clang and its fuzzer runtime (Debian: clang,
# libclang-rt-dev; scripts/setup.sh installs them).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "ROOFCAST_BUILD_FUZZERS needs clang (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}: configure with "
                      "-DCMAKE_CXX_COMPILER=clang++, as scripts/dev/fuzz.sh does")
endif()

include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
check_cxx_source_compiles(
  "#include <cstddef>
   #include <cstdint>
   extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }"
  ROOFCAST_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
if(NOT ROOFCAST_HAVE_LIBFUZZER)
  message(FATAL_ERROR "clang cannot link -fsanitize=fuzzer,address,undefined: install clang's runtime "
                      "(Debian: apt-get install libclang-rt-dev, or scripts/setup.sh)")
endif()

add_compile_options(-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
message(STATUS "roofcast: fuzz targets with ASan and UBSan (tests/fuzz)")
