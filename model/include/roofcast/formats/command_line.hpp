#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast {

// `word` as a POSIX shell reads it back: as it is when it holds only characters no shell treats
// specially, else in single quotes (a quote inside as '\''). For the command lines written into
// the files a command makes (provenance, report headers), to be pasted back into a shell.
std::string shell_quoted(std::string_view word);
// The words quoted by shell_quoted, joined by spaces.
std::string shell_command(const std::vector<std::string>& words);

// A moment in UTC: `iso8601` "2026-11-25T12:34:56Z" for files, `readable` "2026-11-25 12:34 UTC"
// for people.
enum class TimeStyle { iso8601, readable };
std::string utc_time_text(std::chrono::system_clock::time_point when, TimeStyle style = TimeStyle::iso8601);

}  // namespace roofcast
