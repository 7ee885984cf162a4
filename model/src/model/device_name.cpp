#include "roofcast/model/device_name.hpp"

#include <cctype>
#include <vector>

namespace roofcast {

namespace {

bool is_key_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
char key_character(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// The words of a name: runs of letters and digits, lower case.
std::vector<std::string> words_of(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : name) {
    if (is_key_character(c)) {
      word += key_character(c);
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool all_digits(std::string_view text) {
  for (const char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// A partition's first word: "mps" or "mig", alone or with its number ("mps25").
bool starts_partition(const std::string& word) {
  for (const std::string_view kind : {"mps", "mig"})
    if (word.starts_with(kind) && all_digits(std::string_view(word).substr(kind.size()))) return true;
  return false;
}

// A name split into the GPU's words and its partition's key ("" for a whole GPU).
struct NameParts {
  std::vector<std::string> gpu;
  std::string partition;
};

NameParts parts_of(std::string_view name) {
  NameParts parts;
  bool in_partition = false;
  for (auto& word : words_of(name)) {
    in_partition = in_partition || starts_partition(word);
    if (in_partition)
      parts.partition += word;
    else
      parts.gpu.push_back(std::move(word));
  }
  return parts;
}

// Whether query[q...] are runs of consecutive words of name[n...], in order (runs may skip words).
bool words_are_runs(const std::vector<std::string>& query, size_t q, const std::vector<std::string>& name, size_t n) {
  if (q == query.size()) return true;
  for (size_t start = n; start < name.size(); ++start) {
    std::string run;
    for (size_t end = start; end < name.size() && run.size() < query[q].size(); ++end) {
      run += name[end];
      if (run == query[q] && words_are_runs(query, q + 1, name, end + 1)) return true;
    }
  }
  return false;
}

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

std::vector<std::string> device_name_forms(std::string_view name) {
  const NameParts parts = parts_of(name);
  std::vector<std::string> forms;
  for (size_t start = 0; start < parts.gpu.size(); ++start) {
    std::string run;
    for (size_t end = start; end < parts.gpu.size(); ++end) {
      run += parts.gpu[end];
      forms.push_back(run + parts.partition);
    }
  }
  return forms;
}

bool device_name_matches(std::string_view query, std::string_view name) {
  const NameParts asked = parts_of(query), device = parts_of(name);
  if (asked.gpu.empty() || asked.partition != device.partition) return false;
  return words_are_runs(asked.gpu, 0, device.gpu, 0);
}

}  // namespace roofcast
