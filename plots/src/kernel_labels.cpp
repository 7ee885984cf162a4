#include "kernel_labels.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

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

// `text` cut to `width` bytes: head...tail, the tail longer (library kernels share long
// prefixes and differ in their last template arguments).
std::string cut(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  if (width < 5) return head_of(text, width);
  const size_t head = (width - 3) / 3, tail = width - 3 - head;
  return head_of(text, head) + "..." + tail_of(text, tail);
}

// `name` without what is inside parentheses or braces (parameter lists, lambdas' bodies).
std::string without_groups(const std::string& name) {
  std::string result;
  int depth = 0;
  for (const char c : name) {
    if (c == '(' || c == '{') ++depth;
    if (depth == 0) result += c;
    if ((c == ')' || c == '}') && depth > 0) --depth;
  }
  return result;
}

// The template's name and its arguments' identifiers and numbers, in order, each once.
std::pair<std::string, std::vector<std::string>> base_and_tokens(const std::string& compact) {
  const auto open = compact.find('<');
  if (open == std::string::npos) return {compact, {}};
  std::vector<std::string> tokens;
  static const std::regex token(R"([A-Za-z_]\w*|[0-9]\w*)");
  const std::string arguments = compact.substr(open);
  for (auto it = std::sregex_iterator(arguments.begin(), arguments.end(), token); it != std::sregex_iterator(); ++it)
    if (std::find(tokens.begin(), tokens.end(), it->str()) == tokens.end()) tokens.push_back(it->str());
  return {compact.substr(0, open), tokens};
}

}  // namespace

std::string compact_kernel_name(const std::string& name) {
  std::string text = without_groups(kernel_name_without_signature(name));
  // A lambda is named after the function it is in: "f(...)::{lambda()#2}::operator()() const::{lambda()#1}".
  text = std::regex_replace(text, std::regex(R"(::operator\b)"), "::");
  text = std::regex_replace(text, std::regex(R"(\s+const\b)"), "");
  text = std::regex_replace(text, std::regex(R"((::)+)"), "::");
  text = std::regex_replace(text, std::regex(R"(::(?=\s*[,>]|$))"), "");
  text = std::regex_replace(text, std::regex(R"(\b[A-Za-z_]\w*::)"), "");  // namespaces and classes
  text = std::regex_replace(text, std::regex(R"(\s*,\s*)"), ",");
  text = std::regex_replace(text, std::regex(R"(>\s+(?=>))"), ">");
  const auto first = text.find_first_not_of(' '), last = text.find_last_not_of(' ');
  // A name that was all parameter list or namespaces keeps its signature-less form.
  return first == std::string::npos ? kernel_name_without_signature(name) : text.substr(first, last - first + 1);
}

std::vector<std::string> readable_kernel_names(const std::vector<std::string>& names, size_t width) {
  std::vector<std::string> compact, bases;
  std::vector<std::vector<std::string>> tokens;
  for (const auto& name : names) {
    compact.push_back(compact_kernel_name(name));
    auto [base, arguments] = base_and_tokens(compact.back());
    bases.push_back(std::move(base));
    tokens.push_back(std::move(arguments));
  }
  std::vector<std::string> labels;
  for (size_t i = 0; i < names.size(); ++i) {
    if (compact[i].size() <= width) {
      labels.push_back(compact[i]);
      continue;
    }
    // A template's instances differ in some arguments: those (and the name) tell them apart.
    std::set<std::string> shared(tokens[i].begin(), tokens[i].end());
    bool alone = true;
    for (size_t j = 0; j < names.size(); ++j) {
      if (j == i || bases[j] != bases[i] || compact[j] == compact[i]) continue;
      alone = false;
      std::set<std::string> common;
      for (const auto& t : tokens[j])
        if (shared.contains(t)) common.insert(t);
      shared = std::move(common);
    }
    std::vector<std::string> telling;
    for (const auto& t : tokens[i])
      if (alone || !shared.contains(t)) telling.push_back(t);
    std::string label = bases[i];
    if (!telling.empty()) label += "<" + fmt::format("{}", fmt::join(telling, ",")) + ">";
    labels.push_back(cut(label, width));
  }
  return labels;
}

std::vector<std::string> distinct_short_names(const std::vector<std::string>& names, size_t width,
                                              bool drop_signature) {
  std::vector<std::string> labels = drop_signature ? readable_kernel_names(names, width) : std::vector<std::string>{};
  if (!drop_signature)
    for (const auto& name : names) labels.push_back(cut(name, width));
  const std::vector<std::string> first_labels = labels;

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
        labels[i] = cut(first_labels[i], width > suffix.size() ? width - suffix.size() : 0) + suffix;
      }
      renamed = true;
    }
    if (!renamed) break;
  }
  return labels;
}

}  // namespace roofcast::gnuplot
