#include "roofcast/formats/kernel_name_text.hpp"

namespace roofcast {

std::string kernel_name_without_signature(std::string name) {
  if (name.starts_with("void ")) name.erase(0, 5);
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      depth += name[i] == ')' ? 1 : name[i] == '(' ? -1 : 0;
      if (depth == 0) {
        if (i > 0) name.erase(i);
        break;
      }
    }
  }
  return name;
}

}  // namespace roofcast
