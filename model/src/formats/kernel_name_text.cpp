#include "roofcast/formats/kernel_name_text.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace roofcast {

namespace {

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The position of the bracket `open` that matches the `close` at `end` (text[end] == close),
// or npos.
size_t matching_open(std::string_view text, size_t end, char open, char close) {
  int depth = 0;
  for (size_t i = end + 1; i-- > 0;) {
    depth += text[i] == close ? 1 : text[i] == open ? -1 : 0;
    if (depth == 0) return i;
  }
  return std::string_view::npos;
}

}  // namespace

std::string kernel_name_without_signature(std::string name) {
  if (name.starts_with("void ")) name.erase(0, 5);
  if (!name.empty() && name.back() == ')') {
    const size_t open = matching_open(name, name.size() - 1, '(', ')');
    if (open != std::string::npos && open > 0) name.erase(open);
  }
  return name;
}

std::string shortened_kernel_name(const std::string& name, size_t width) {
  const std::string text = kernel_name_without_signature(name);
  if (text.size() <= width) return text;
  size_t head = width * 2 / 5, tail_start = text.size() - (width - head - 3);
  while (head > 0 && continuation_byte(text[head])) --head;
  while (tail_start < text.size() && continuation_byte(text[tail_start])) ++tail_start;
  return text.substr(0, head) + "..." + text.substr(tail_start);
}

std::string kernel_base_name(const std::string& name) {
  std::string text = kernel_name_without_signature(name);
  if (!text.empty() && text.back() == '>') {
    const size_t open = matching_open(text, text.size() - 1, '<', '>');
    if (open != std::string::npos && open > 0) text.erase(open);
  }
  // The last "::" outside template arguments and parentheses ("(anonymous namespace)::k").
  int depth = 0;
  for (size_t i = text.size(); i-- > 1;) {
    const char c = text[i];
    depth += (c == '>' || c == ')') ? 1 : (c == '<' || c == '(') ? -1 : 0;
    if (depth == 0 && c == ':' && text[i - 1] == ':') return text.substr(i + 1);
  }
  return text;
}

std::string demangled_kernel_name(const std::string& name) {
  if (!name.starts_with("_Z")) return name;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                         &std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

}  // namespace roofcast
