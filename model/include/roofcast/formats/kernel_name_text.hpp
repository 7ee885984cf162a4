#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace roofcast {

// A kernel's name without "void " and its parameter list, for tables and chart keys:
// "void ns::kernel<float>(float*, int)" -> "ns::kernel<float>". The name and template arguments
// tell kernels apart; a name that is all parameter list is kept whole.
std::string kernel_name_without_signature(std::string name);

// The width of a kernel's name in every table, HTML report and warning (shortened_kernel_name).
inline constexpr size_t kKernelNameWidth = 64;

// The one rule by which long kernel names (library kernels run to thousands of characters) are
// shortened wherever a person reads them: without "void " and the parameter list, and at most
// `width` bytes, keeping the head and the tail (library kernels share long prefixes and differ
// in their last template arguments), never cutting a UTF-8 character. The whole name stays in
// JSON, CSV and the HTML report's title attributes.
std::string shortened_kernel_name(const std::string& name, size_t width = kKernelNameWidth);

// The function's own name, as Nsight Compute's --kernel-name-base function gives it: without
// its return type, namespaces and classes, template arguments and parameters.
// "void at::native::vectorized_elementwise_kernel<4, Mul<float> >(int, ...)" ->
// "vectorized_elementwise_kernel".
std::string kernel_base_name(const std::string& name);

// A mangled C++ name ("_Z11fill_kernelPfmf") demangled ("fill_kernel(float*, unsigned long,
// float)"), as the collector names kernels; any other name (extern "C" kernels) as it is.
std::string demangled_kernel_name(const std::string& name);

}  // namespace roofcast
