#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// Where a profile's top-level `kernels` array lies in its text, and each element's text.
struct KernelArrayText {
  size_t begin = 0;  // the array's '['
  size_t end = 0;    // one past its ']'
  std::vector<std::string_view> elements;
};

// Finds the `kernels` array of a profile's text without parsing it: a string-aware scan of the
// brackets. nullopt when the text is not shaped as it expects (not an object, no `kernels` key or
// two of them, a key with escapes, an empty array or element, unbalanced brackets, a string longer
// than input_limits::kMaxProfileStringBytes anywhere in the text); the caller
// then reads it with the checked reader. Elements are not checked: each is parsed afterwards.
std::optional<KernelArrayText> split_kernel_array(std::string_view text);

// The kernels of the array, each read by read_well_formed_kernel on every core (oneTBB's tasks),
// in the file's order; nullopt if any is refused or a name is listed twice.
std::optional<std::vector<KernelRecord>> read_well_formed_kernels(const KernelArrayText& array);

// Where the `kernels` array lies, and its kernels.
struct KernelArray {
  size_t begin = 0;  // the array's '['
  size_t end = 0;    // one past its ']'
  std::vector<KernelRecord> kernels;
};
// split_kernel_array and read_well_formed_kernels at once: the first kernels are read on other
// cores while the scan finds the next (a profile of 100,000 kernels is scanned in about 50 ms).
std::optional<KernelArray> read_kernel_array(std::string_view text);

}  // namespace roofcast
