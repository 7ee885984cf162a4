#include "roofcast/formats/command_line.hpp"

#include <ctime>

namespace roofcast {

std::string shell_quoted(std::string_view word) {
  constexpr std::string_view kPlain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:%,+@";
  if (!word.empty() && word.find_first_not_of(kPlain) == std::string_view::npos) return std::string(word);
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_command(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) {
    if (!text.empty()) text += ' ';
    text += shell_quoted(word);
  }
  return text;
}

std::string utc_time_text(std::chrono::system_clock::time_point when, TimeStyle style) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, style == TimeStyle::iso8601 ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

}  // namespace roofcast
