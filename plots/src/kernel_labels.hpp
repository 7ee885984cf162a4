#pragma once

#include <string>
#include <vector>

namespace roofcast::gnuplot {

// A C++ kernel's name as people say it: no return type, parameter lists, namespaces or spaces
// after commas; a lambda named after the function it is in.
// "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<float>,
// std::array<char*, 2ul> >(int, ...)" -> "vectorized_elementwise_kernel<4,CUDAFunctorOnSelf_add<float>,array<char*,2ul>>".
std::string compact_kernel_name(const std::string& name);

// Labels of at most `width` bytes for a set of kernels: the compact name when it fits; else
// the template's name and the identifiers of the template arguments that tell it from the other
// instances of that template in the set ("reduce_kernel<double,NormTwoOps,true>"), cut to
// head...tail when still too long.
std::vector<std::string> readable_kernel_names(const std::vector<std::string>& names, size_t width);

// Labels for kernel names in charts, one per name, at most `width` bytes each: readable_kernel_names
// (or, when `drop_signature` is false, for names that are not functions' such as devices', the
// name cut to head...tail), and names that still come out alike numbered "#1", "#2"... in order,
// so that different names never share a label. The same name always gets the same label.
std::vector<std::string> distinct_short_names(const std::vector<std::string>& names, size_t width,
                                              bool drop_signature = true);

}  // namespace roofcast::gnuplot
