#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// The kernels of a profile that a --kernel names, as Nsight Compute's -k takes them, tried in
// this order, the first rule that any kernel meets deciding:
//   1. the whole name (demangled, as the collector writes it) or the mangled name;
//   2. the base name: the function's own name ("stream_triad", kernel_base_name);
//   3. a name as the tables shorten it ("at::native::vectorized_el...std::array<char*, 2ul> >");
//   4. a part of the whole name ("triad", "MulFunctor<float>").
// "regex:EXPR" instead matches every kernel whose whole name EXPR (ECMAScript) is found in.
struct KernelMatches {
  std::vector<size_t> kernels;  // indices into profile.kernels, in profile order
  std::string rule;             // how they matched: "name", "mangled name", "base name", "shortened name",
                                //   "part of the name" or "regex"
};
// Throws InputError when a regex: is not a valid regular expression.
KernelMatches match_kernels(const KernelProfile& profile, std::string_view query, std::string_view option = "--kernel");

// The one kernel that `query` names in `profile` (read from `source`). Several matches or none
// are refused with one line that names the option, the file and the candidates (shortened
// names with their launch counts), and says how to name one. An empty query names the
// profile's only kernel.
const KernelRecord& find_kernel(const KernelProfile& profile, std::string_view query, std::string_view source,
                                std::string_view option = "--kernel");

}  // namespace roofcast
