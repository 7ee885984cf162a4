#pragma once

#include <string>
#include <vector>

namespace roofcast::gnuplot {

// Labels for kernel names in charts, one per name, at most `width` bytes each: the C++ return
// type and parameter list dropped (unless `drop_signature` is false, for names that are not
// functions' such as devices'), long names cut to their head and tail (library kernels share
// long prefixes and differ in their last template arguments), and names that still come out
// alike numbered "#1", "#2"... in order, so that different names never share a label. The same
// name always gets the same label.
std::vector<std::string> distinct_short_names(const std::vector<std::string>& names, size_t width,
                                              bool drop_signature = true);

}  // namespace roofcast::gnuplot
