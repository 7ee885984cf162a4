// Fuzz target: `roofcast merge` of two profiles (the input holds both, split at its first NUL
// byte, which JSON text never holds; without one, the input is merged with itself). Each must be
// merged or refused with an InputError naming it; what is merged must read back as a kernel
// profile whose kernels are both inputs' kernels, with every number finite (no null where a
// number was: nulls only where an input had them) and the copies' sums adding up.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fuzz_checks.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/profile_merge.hpp"

namespace {

using nlohmann::json;

// The nulls of `value`, and a finding for any number that is not finite.
size_t nulls_in(const json& value) {
  if (value.is_null()) return 1;
  if (value.is_number_float() && !std::isfinite(value.get<double>()))
    roofcast::fuzz::finding("a number that is not finite", value.dump());
  size_t nulls = 0;
  if (value.is_structured())
    for (const auto& item : value) nulls += nulls_in(item);
  return nulls;
}

// The nulls of the profile's text as the merge reads it: what the reader keeps of it.
size_t nulls_in_text(std::string_view text) {
  const json document = json::parse(text);
  size_t nulls = 0;
  for (const char* key : {"kernels", "collector", "memsets", "peer_copies", "notes"})
    if (document.contains(key)) nulls += nulls_in(document[key]);
  return nulls;
}

double transfer_sum(const roofcast::KernelProfile& profile, double roofcast::TransferRecord::*member) {
  double sum = 0;
  for (const auto& transfer : profile.transfers) sum += transfer.*member;
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view input) {
    const size_t split = input.find('\0');
    const std::string_view first = input.substr(0, split);
    const std::string_view second = split == std::string_view::npos ? input : input.substr(split + 1);
    const std::string merged_text =
        profiler::merge_profiles({{"a", "fuzz-input-a", first}, {"b", "fuzz-input-b", second}});
    // Both merged: both are kernel profiles.
    const KernelProfile a = parse_kernel_profile(first, fuzz::kSource);
    const KernelProfile b = parse_kernel_profile(second, fuzz::kSource);
    KernelProfile merged;
    fuzz::check_reads_back("the merged profile does not read back",
                           [&] { merged = parse_kernel_profile(merged_text, fuzz::kSource); });
    fuzz::check_profile(merged);
    if (merged.kernels.size() != a.kernels.size() + b.kernels.size())
      fuzz::finding("the merged kernels are not both inputs' kernels",
                    fmt::format("{} + {} -> {}", a.kernels.size(), b.kernels.size(), merged.kernels.size()));
    const json document = json::parse(merged_text);
    if (nulls_in(document) > nulls_in_text(first) + nulls_in_text(second))
      fuzz::finding("the merged profile holds a null the inputs did not", merged_text.substr(0, 2000));
    double invocations = 0;
    for (const auto* profile : {&a, &b}) {
      double in_file = 0;
      for (const auto& kernel : profile->kernels) in_file += static_cast<double>(kernel.invocations);
      invocations += in_file;
    }
    if (document["merged"]["invocations"].get<double>() != invocations)
      fuzz::finding("the merged invocations do not add up", document["merged"].dump());
    for (const auto member : {&TransferRecord::count, &TransferRecord::bytes}) {
      const double expected = transfer_sum(a, member) + transfer_sum(b, member);
      const double got = transfer_sum(merged, member);
      if (std::abs(got - expected) > 1e-9 * std::max(1.0, expected))
        fuzz::finding("the merged copies do not add up", fmt::format("{} != {}", got, expected));
    }
  });
}
