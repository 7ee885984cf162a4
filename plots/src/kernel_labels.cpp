#include "kernel_labels.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "roofcast/formats/kernel_name_text.hpp"

namespace roofcast::gnuplot {

namespace {

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The first `length` bytes of `text`, or fewer, never ending inside a UTF-8 sequence.
std::string head_of(const std::string& text, size_t length) {
  if (length >= text.size()) return text;
  while (length > 0 && continuation_byte(text[length])) --length;
  return text.substr(0, length);
}

// The last `length` bytes of `text`, or fewer, never starting inside a UTF-8 sequence.
std::string tail_of(const std::string& text, size_t length) {
  if (length >= text.size()) return text;
  size_t start = text.size() - length;
  while (start < text.size() && continuation_byte(text[start])) ++start;
  return text.substr(start);
}

// `text` cut to `width` bytes: head...tail.
std::string cut(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  if (width < 5) return head_of(text, width);
  const size_t head = (width - 3) / 2, tail = width - 3 - head;
  return head_of(text, head) + "..." + tail_of(text, tail);
}

}  // namespace

std::vector<std::string> distinct_short_names(const std::vector<std::string>& names, size_t width,
                                              bool drop_signature) {
  const auto shown = [drop_signature](const std::string& name) { return drop_signature ? kernel_name_without_signature(name) : name; };
  std::vector<std::string> labels;
  labels.reserve(names.size());
  for (const auto& name : names) labels.push_back(cut(shown(name), width));

  // Different names that came out alike: each gets its number among them as a suffix.
  for (int pass = 0; pass < 2; ++pass) {
    std::map<std::string, std::vector<size_t>> users;  // label -> indices of the names that got it
    for (size_t i = 0; i < names.size(); ++i) users[labels[i]].push_back(i);
    bool renamed = false;
    for (auto& [label, indices] : users) {
      std::vector<std::string> distinct;  // the different names behind this label, in order
      for (const size_t i : indices)
        if (std::find(distinct.begin(), distinct.end(), names[i]) == distinct.end()) distinct.push_back(names[i]);
      if (distinct.size() < 2) continue;
      for (const size_t i : indices) {
        const size_t number = static_cast<size_t>(std::find(distinct.begin(), distinct.end(), names[i]) - distinct.begin());
        // The second pass numbers by position in `names`, unique whatever the first pass made.
        std::string suffix = "#";
        suffix += std::to_string(pass == 0 ? number + 1 : i + 1);
        labels[i] = cut(shown(names[i]), width > suffix.size() ? width - suffix.size() : 0) + suffix;
      }
      renamed = true;
    }
    if (!renamed) break;
  }
  return labels;
}

}  // namespace roofcast::gnuplot
