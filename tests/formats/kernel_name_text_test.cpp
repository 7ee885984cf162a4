// Kernel names as people read and type them: one rule that shortens them everywhere, the base
// name Nsight Compute's -k takes, demangling, and the closest name for "did you mean".
#include <catch2/catch.hpp>

#include "roofcast/formats/closest_name.hpp"
#include "roofcast/formats/kernel_name_text.hpp"

using namespace roofcast;

TEST_CASE("long kernel names keep what tells them apart") {
  CHECK(shortened_kernel_name("sor_red(double*, double const*, int)", 40) == "sor_red");
  CHECK(shortened_kernel_name("void at::native::kernel<4, Mul<float> >(int, std::array<char*, 2ul>)", 80) ==
        "at::native::kernel<4, Mul<float> >");
  const std::string shortened = shortened_kernel_name(
      "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, "
      "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, std::array<char*, 2ul>)",
      64);
  CHECK(shortened.size() == 64);
  CHECK(shortened == "at::native::vectorized_el...r<float> >, std::array<char*, 2ul> >");  // 25 + 3 + 36
  CHECK(shortened_kernel_name("plain", 48) == "plain");
  CHECK(shortened_kernel_name(std::string(5000, 'x')).size() == kKernelNameWidth);
}

TEST_CASE("a shortened name never cuts a UTF-8 character") {
  std::string name;
  for (int i = 0; i < 40; ++i) name += "\xc3\xa9";  // e acute, two bytes each
  const std::string shortened = shortened_kernel_name(name, 21);
  CHECK(shortened.size() <= 21);
  const size_t dots = shortened.find("...");
  REQUIRE(dots != std::string::npos);
  CHECK(dots % 2 == 0);
  CHECK((shortened.size() - dots - 3) % 2 == 0);
}

TEST_CASE("a kernel's base name is its function's name, as ncu --kernel-name-base function gives it") {
  CHECK(kernel_base_name("stream_triad(double*, double const*, double const*, double)") == "stream_triad");
  CHECK(kernel_base_name("void at::native::vectorized_elementwise_kernel<4, at::native::Mul<float> >(int, "
                         "std::array<char*, 2ul>)") == "vectorized_elementwise_kernel");
  CHECK(kernel_base_name("void ns::Outer<int>::inner<float>(float*)") == "inner");
  CHECK(kernel_base_name("(anonymous namespace)::fill(float*)") == "fill");
  CHECK(kernel_base_name("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_cublas") ==
        "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_cublas");
  CHECK(kernel_base_name("sor_red") == "sor_red");
}

TEST_CASE("mangled names are demangled as the collector does, others are kept") {
  CHECK(demangled_kernel_name("_Z11fill_kernelPfmf") == "fill_kernel(float*, unsigned long, float)");
  CHECK(demangled_kernel_name("sm80_xmma_gemm_cublas") == "sm80_xmma_gemm_cublas");
  CHECK(demangled_kernel_name("_Znot a mangled name") == "_Znot a mangled name");
}

TEST_CASE("the closest name is offered for a typo, not for an unrelated word") {
  CHECK(edit_distance("predcit", "predict") == 2);
  CHECK(edit_distance("H100", "h100") == 0);
  CHECK(closest_name("predcit", {"predict", "explain", "rank"}) == "predict");
  CHECK(closest_name("rnak", {"predict", "explain", "rank"}) == "rank");
  CHECK_FALSE(closest_name("zzzzzz", {"predict", "explain", "rank"}).has_value());
}
