#include "roofcast/model/device_name.hpp"

#include <cctype>

namespace roofcast {

namespace {

bool is_key_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
char key_character(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

std::string device_name_key(std::string_view name) {
  std::string key;
  for (const char c : name)
    if (is_key_character(c)) key += key_character(c);
  return key;
}

// device_name_key(a) == device_name_key(b), without building the keys: `predict` matches every
// kernel's measured devices against every target.
bool same_device_name(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a.size() && !is_key_character(a[i])) ++i;
    while (j < b.size() && !is_key_character(b[j])) ++j;
    if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
    if (key_character(a[i]) != key_character(b[j])) return false;
    ++i;
    ++j;
  }
}

}  // namespace roofcast
