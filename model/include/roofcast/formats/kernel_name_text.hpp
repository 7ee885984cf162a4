#pragma once

#include <string>

namespace roofcast {

// A kernel's name without "void " and its parameter list, for tables and chart keys:
// "void ns::kernel<float>(float*, int)" -> "ns::kernel<float>". The name and template arguments
// tell kernels apart; a name that is all parameter list is kept whole.
std::string kernel_name_without_signature(std::string name);

}  // namespace roofcast
