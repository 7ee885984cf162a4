#include "roofcast/profiler/output_pattern.hpp"

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast::profiler {

namespace {

struct Piece {
  enum Kind { text, pid, variable } kind;
  std::string value;  // text or variable name
};

std::vector<Piece> parse(const std::string& pattern) {
  std::vector<Piece> pieces;
  auto fail = [&](const std::string& why) {
    throw InputError(fmt::format("profile: --output \"{}\": {} (patterns: %p the process id, %q{{VAR}} an "
                                 "environment variable, %% a percent sign)",
                                 printable(pattern), why));
  };
  std::string text;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      text += pattern[i];
      continue;
    }
    if (i + 1 == pattern.size()) fail("ends with a lone %");
    const char next = pattern[++i];
    if (next == '%') {
      text += '%';
    } else if (next == 'p') {
      pieces.push_back({Piece::text, text});
      text.clear();
      pieces.push_back({Piece::pid, ""});
    } else if (next == 'q') {
      const size_t close = pattern.find('}', i);
      if (i + 1 >= pattern.size() || pattern[i + 1] != '{' || close == std::string::npos) fail("%q needs {VAR}");
      const std::string name = pattern.substr(i + 2, close - i - 2);
      if (name.empty() || name.find_first_of("=,") != std::string::npos) fail(fmt::format("%q{{{}}}: not a variable name", name));
      pieces.push_back({Piece::text, text});
      text.clear();
      pieces.push_back({Piece::variable, name});
      i = close;
    } else {
      fail(fmt::format("unknown pattern %{}", next));
    }
  }
  pieces.push_back({Piece::text, text});
  return pieces;
}

}  // namespace

bool is_per_process(const std::string& pattern) {
  for (const auto& piece : parse(pattern))
    if (piece.kind != Piece::text) return true;
  return false;
}

std::vector<std::string> pattern_variables(const std::string& pattern) {
  std::vector<std::string> names;
  for (const auto& piece : parse(pattern))
    if (piece.kind == Piece::variable) names.push_back(piece.value);
  return names;
}

std::string expand_output_pattern(const std::string& pattern, int pid, const std::map<std::string, std::string>& env) {
  std::string name;
  for (const auto& piece : parse(pattern)) {
    if (piece.kind == Piece::text) name += piece.value;
    if (piece.kind == Piece::pid) name += std::to_string(pid);
    if (piece.kind == Piece::variable)
      if (const auto found = env.find(piece.value); found != env.end()) name += found->second;
  }
  return name;
}

}  // namespace roofcast::profiler
