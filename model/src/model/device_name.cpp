#include "roofcast/model/device_name.hpp"

#include <cctype>

namespace roofcast {

std::string device_name_key(std::string_view name) {
  std::string key;
  for (const char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

bool same_device_name(std::string_view a, std::string_view b) { return device_name_key(a) == device_name_key(b); }

}  // namespace roofcast
