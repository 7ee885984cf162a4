#include "roofcast/output/json_writer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace roofcast {

namespace {

// Printable ASCII without quote or backslash: written between quotes as it is. Anything else
// (escapes, UTF-8, invalid UTF-8) goes through nlohmann's own serializer, as json_text() calls it
// (formats/json_text.hpp): each byte that is not valid UTF-8 becomes U+FFFD.
bool plain_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
}

// plain_byte() of 8 bytes at once (the text of a million predictions is mostly names and keys).
bool plain_word(uint64_t word) {
  constexpr uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  // A byte of `x` is zero (exact: no false positives).
  auto has_zero_byte = [](uint64_t x) { return ((x - ones) & ~x & highs) != 0; };
  if ((word & highs) != 0) return false;                   // >= 0x80
  if (((word - ones * 0x20) & ~word & highs) != 0) return false;  // < 0x20 (every byte < 0x80 here)
  return !has_zero_byte(word ^ (ones * 0x7f)) && !has_zero_byte(word ^ (ones * '"')) &&
         !has_zero_byte(word ^ (ones * '\\'));
}

bool needs_no_escaping(std::string_view text) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    if (!plain_word(word)) return false;
  }
  for (; i < text.size(); ++i)
    if (!plain_byte(text[i])) return false;
  return true;
}

}  // namespace

JsonWriter::JsonWriter(size_t depth) : out_(nullptr) {
  for (size_t i = 0; i + 1 < depth; ++i) levels_.push_back({true, false, {}});
  if (depth > 0) levels_.push_back({false, false, {}});
}

JsonWriter::~JsonWriter() { flush(); }

void JsonWriter::values_text(std::string_view text) {
  if (text.empty()) return;
  if (levels_.empty() || levels_.back().object || after_key_)
    throw std::logic_error("JsonWriter: values outside an array");
  Level& level = levels_.back();
  if (level.empty && text.front() == ',') text.remove_prefix(1);
  level.empty = false;
  if (out_ == nullptr) {
    buffer_ += text;
    return;
  }
  flush();
  out_->write(text.data(), static_cast<std::streamsize>(text.size()));
}

void JsonWriter::flush() {
  if (out_ == nullptr) return;
  out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

// A line break and the indentation of up to kMaxFastDepth levels, appended in one piece.
constexpr size_t kMaxFastDepth = 32;
constexpr std::array<char, 1 + 2 * kMaxFastDepth> kLineBreak = [] {
  std::array<char, 1 + 2 * kMaxFastDepth> text{};
  text[0] = '\n';
  for (size_t i = 1; i < text.size(); ++i) text[i] = ' ';
  return text;
}();

void JsonWriter::indent() {
  if (levels_.size() <= kMaxFastDepth) {
    buffer_.append(kLineBreak.data(), 1 + 2 * levels_.size());
    return;
  }
  buffer_ += '\n';
  buffer_.append(2 * levels_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  if (level.object) throw std::logic_error("JsonWriter: a value in an object needs a key");
  if (!level.empty) buffer_ += ',';
  level.empty = false;
  indent();
}

void JsonWriter::key(std::string_view name) {
  if (levels_.empty() || !levels_.back().object || after_key_)
    throw std::logic_error(fmt::format("JsonWriter: key \"{}\" outside an object", name));
  Level& level = levels_.back();
  if (!level.empty && !(level.last_key < name))
    throw std::logic_error(fmt::format("JsonWriter: key \"{}\" after \"{}\" (nlohmann sorts keys)", name, level.last_key));
  const bool first = level.empty;
  level.empty = false;
  level.last_key = name;
  after_key_ = true;
  // Most keys are short plain names: their separator, indentation, quotes and colon go into the
  // text as one piece.
  const size_t depth = levels_.size();
  std::array<char, 2 + 2 * kMaxFastDepth + 64 + 4> piece;
  if (depth <= kMaxFastDepth && name.size() <= 64 && needs_no_escaping(name)) {
    char* end = piece.data();
    if (!first) *end++ = ',';
    end = std::copy_n(kLineBreak.data(), 1 + 2 * depth, end);
    *end++ = '"';
    end = std::copy(name.begin(), name.end(), end);
    end = std::copy_n("\": ", 3, end);
    buffer_.append(piece.data(), static_cast<size_t>(end - piece.data()));
    return;
  }
  if (!first) buffer_ += ',';
  indent();
  write_string(name);
  buffer_ += ": ";
}

void JsonWriter::open(char bracket, bool object) {
  before_value();
  buffer_ += bracket;
  levels_.push_back({object, true, {}});
}

void JsonWriter::close(char bracket) {
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) indent();
  buffer_ += bracket;
  if (levels_.empty() || buffer_.size() > kFlushBytes) flush();
}

void JsonWriter::begin_object() { open('{', true); }
void JsonWriter::end_object() { close('}'); }
void JsonWriter::begin_array() { open('[', false); }
void JsonWriter::end_array() { close(']'); }

void JsonWriter::value(double number) {
  before_value();
  if (!std::isfinite(number)) {
    buffer_ += "null";
    return;
  }
  // nlohmann's shortest round-trip form ("1.0", "1e-05"), as its serializer writes it.
  std::array<char, 64> buffer{};
  char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  buffer_.append(buffer.data(), static_cast<size_t>(end - buffer.data()));
}

void JsonWriter::value(std::int64_t number) {
  before_value();
  fmt::format_to(std::back_inserter(buffer_), "{}", number);
}

void JsonWriter::value(std::size_t number) {
  before_value();
  fmt::format_to(std::back_inserter(buffer_), "{}", number);
}

void JsonWriter::value(bool flag) {
  before_value();
  buffer_ += flag ? "true" : "false";
}

void JsonWriter::value(std::string_view text) {
  before_value();
  write_string(text);
}

void JsonWriter::write_string(std::string_view text) {
  if (needs_no_escaping(text)) {
    buffer_ += '"';
    buffer_ += text;
    buffer_ += '"';
  } else {
    buffer_ += nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

void JsonWriter::value(const std::optional<double>& number) {
  if (number)
    value(*number);
  else
    null();
}

void JsonWriter::null() {
  before_value();
  buffer_ += "null";
}

}  // namespace roofcast
