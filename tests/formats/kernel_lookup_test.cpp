// --kernel as Nsight Compute's -k takes it: whole, mangled or base name, a part of the name,
// regex:, and a name as the tables shorten it; several matches are listed, never guessed.
#include <catch2/catch.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/kernel_lookup.hpp"
#include "roofcast/formats/kernel_name_text.hpp"

using namespace roofcast;

namespace {

KernelProfile profile_of(const std::vector<std::pair<std::string, std::string>>& names) {
  KernelProfile profile;
  for (const auto& [name, mangled] : names) {
    KernelRecord kernel;
    kernel.name = name;
    kernel.mangled_name = mangled;
    kernel.invocations = 3;
    profile.kernels.push_back(kernel);
  }
  return profile;
}

const std::string kMul =
    "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, "
    "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, std::array<char*, 2ul>)";
const std::string kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> "
    ">(int, std::array<char*, 3ul>)";

const KernelProfile kProfile = profile_of({{"stream_triad(double*, double const*, double const*, double)",
                                            "_Z12stream_triadPdPKdS1_d"},
                                           {"stream_copy(double*, double const*)", "_Z11stream_copyPdPKd"},
                                           {kMul, ""},
                                           {kAdd, ""}});

std::string error_of(std::string_view query) {
  try {
    find_kernel(kProfile, query, "app.json");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a kernel is found by its whole, mangled or base name, or a part of its name") {
  CHECK(find_kernel(kProfile, "stream_triad", "app.json").name.starts_with("stream_triad("));
  CHECK(find_kernel(kProfile, "_Z11stream_copyPdPKd", "app.json").name.starts_with("stream_copy("));
  CHECK(find_kernel(kProfile, kAdd, "app.json").name == kAdd);
  CHECK(find_kernel(kProfile, "triad", "app.json").name.starts_with("stream_triad("));
  CHECK(find_kernel(kProfile, "MulFunctor", "app.json").name == kMul);
  CHECK(find_kernel(kProfile, "regex:add<float>", "app.json").name == kAdd);
  // The name a table shows, copied back.
  CHECK(find_kernel(kProfile, shortened_kernel_name(kMul), "app.json").name == kMul);
  CHECK(match_kernels(kProfile, "stream_triad").rule == "base name");
}

TEST_CASE("a whole name wins over the same text as a part of another name") {
  const KernelProfile profile = profile_of({{"scale", ""}, {"scale_add", ""}});
  CHECK(find_kernel(profile, "scale", "p.json").name == "scale");
}

TEST_CASE("several matches list the candidates with their launches instead of picking one") {
  const std::string error = error_of("vectorized_elementwise_kernel");
  CHECK_THAT(error, Catch::Contains("--kernel vectorized_elementwise_kernel: 2 kernels of app.json match (by base name)"));
  CHECK_THAT(error, Catch::Contains("(3 launches)"));
  CHECK_THAT(error, Catch::Contains("regex:"));
  CHECK(error.find('\n') == std::string::npos);
  CHECK(error.size() < 800);  // shortened names, not 200-character signatures
  CHECK_THAT(error_of("regex:^stream"), Catch::Contains("2 kernels of app.json match (by regex)"));
}

TEST_CASE("no match names the closest kernel, a bad regex is named") {
  CHECK_THAT(error_of("stream_triads"), Catch::Contains("no kernel of app.json matches") &&
                                            Catch::Contains("did you mean stream_triad?"));
  CHECK_THAT(error_of("regex:(unclosed"), Catch::Contains("--kernel regex:(unclosed: not a regular expression"));
  CHECK_THAT(error_of(""), Catch::Contains("app.json: holds 4 kernels; choose one with --kernel"));
}
