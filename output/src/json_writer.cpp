#include "roofcast/output/json_writer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <nlohmann/json.hpp>

namespace roofcast {

namespace {

// Text of printable ASCII without quote or backslash is written between quotes as it is ("plain"
// bytes). Anything else (escapes, UTF-8, invalid UTF-8) goes through nlohmann's own serializer,
// as json_text() calls it (formats/json_text.hpp): each byte that is not valid UTF-8 becomes U+FFFD.
// The text of a million predictions is mostly names, keys and notes: checked and copied in one
// pass, 16 bytes at a time.
bool plain_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
}

template <typename Word>
Word load(const char* bytes) {
  Word word;
  std::memcpy(&word, bytes, sizeof word);
  return word;
}

template <typename Word>
void store(Word word, char* bytes) {
  std::memcpy(bytes, &word, sizeof word);
}

#if defined(__SSE2__)

bool plain_block(__m128i block) {
  // As signed bytes, those from 0x80 up are negative: below 0x20 with the control characters.
  const __m128i below_space = _mm_cmplt_epi8(block, _mm_set1_epi8(0x20));
  const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')),
                                                    _mm_cmpeq_epi8(block, _mm_set1_epi8('\\'))),
                                       _mm_cmpeq_epi8(block, _mm_set1_epi8(0x7f)));
  return _mm_movemask_epi8(_mm_or_si128(below_space, special)) == 0;
}

// The 16 bytes at `from` to `to`, if plain.
bool copy_plain_block(const char* from, char* to) {
  const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
  if (!plain_block(block)) return false;
  _mm_storeu_si128(reinterpret_cast<__m128i*>(to), block);
  return true;
}

// `text` to `out` (text.size() bytes, no more) if every byte is plain; false, with some bytes
// written, if not. Text shorter than a block (most keys) is read as two overlapping words, not
// copied into a block first: a wide load of narrower stores just made waits for them.
bool copy_plain(std::string_view text, char* out) {
  const char* in = text.data();
  const size_t size = text.size();
  if (size >= 16) {
    for (size_t i = 0; i + 16 <= size; i += 16)
      if (!copy_plain_block(in + i, out + i)) return false;
    // The tail: the last 16 bytes, some of them copied already.
    return size % 16 == 0 || copy_plain_block(in + size - 16, out + size - 16);
  }
  if (size >= 8) {
    const auto first = load<int64_t>(in), last = load<int64_t>(in + size - 8);
    if (!plain_block(_mm_set_epi64x(first, last))) return false;
    store(first, out);
    store(last, out + size - 8);
    return true;
  }
  if (size >= 4) {
    constexpr int32_t kPlain = 0x61616161;  // "aaaa"
    const auto first = load<int32_t>(in), last = load<int32_t>(in + size - 4);
    if (!plain_block(_mm_set_epi32(kPlain, kPlain, first, last))) return false;
    store(first, out);
    store(last, out + size - 4);
    return true;
  }
  for (size_t i = 0; i < size; ++i) {
    if (!plain_byte(in[i])) return false;
    out[i] = in[i];
  }
  return true;
}

#else

// plain_byte() of 8 bytes at once.
bool plain_word(uint64_t word) {
  constexpr uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  // A byte of `x` is zero (exact: no false positives).
  auto has_zero_byte = [](uint64_t x) { return ((x - ones) & ~x & highs) != 0; };
  if ((word & highs) != 0) return false;                   // >= 0x80
  if (((word - ones * 0x20) & ~word & highs) != 0) return false;  // < 0x20 (every byte < 0x80 here)
  return !has_zero_byte(word ^ (ones * 0x7f)) && !has_zero_byte(word ^ (ones * '"')) &&
         !has_zero_byte(word ^ (ones * '\\'));
}

bool copy_plain(std::string_view text, char* out) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    const auto word = load<uint64_t>(text.data() + i);
    if (!plain_word(word)) return false;
    store(word, out + i);
  }
  for (; i < text.size(); ++i) {
    if (!plain_byte(text[i])) return false;
    out[i] = text[i];
  }
  return true;
}

#endif

// nlohmann's exponent: a sign and at least two digits ("e+05", "e-300").
char* write_exponent(int exponent, char* out) {
  *out++ = exponent < 0 ? '-' : '+';
  const auto magnitude = static_cast<unsigned>(exponent < 0 ? -exponent : exponent);
  if (magnitude >= 100) *out++ = static_cast<char>('0' + magnitude / 100);
  *out++ = static_cast<char>('0' + magnitude / 10 % 10);
  *out++ = static_cast<char>('0' + magnitude % 10);
  return out;
}

// Pieces of at most kPieceBytes are copied whole, a fixed-size copy being a few moves where a
// copy of the exact size is a call: the bytes past the piece's end are written over next, or
// left past the number's end (write_json_number has room for them).
constexpr size_t kPieceBytes = 24;

// The digits of `value` (> 0, at most 17 of them: a double's shortest significand) at `out`;
// returns how many. Two digits at a time, in 32-bit arithmetic where it fits.
int write_digits(uint64_t value, char* out) {
  static constexpr auto kPairs = [] {
    std::array<char, 200> pairs{};
    for (int i = 0; i < 100; ++i) {
      pairs[2 * i] = static_cast<char>('0' + i / 10);
      pairs[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
    return pairs;
  }();
  static constexpr auto kPowersOf10 = [] {
    std::array<uint64_t, 20> powers{};
    powers[0] = 1;
    for (size_t i = 1; i < powers.size(); ++i) powers[i] = 10 * powers[i - 1];
    return powers;
  }();
  // floor(log10(value)) from its bit width (1233 / 4096 ~ log10(2)), one less where it overshoots.
  const int log10_guess = (std::bit_width(value) * 1233) >> 12;
  const int count = log10_guess + (value >= kPowersOf10[static_cast<size_t>(log10_guess)] ? 1 : 0);
  char* end = out + count;
  const auto write_pairs = [&](uint32_t part, int digits) {
    for (; digits >= 2; digits -= 2, part /= 100) std::memcpy(end -= 2, &kPairs[2 * (part % 100)], 2);
    if (digits == 1) *--end = static_cast<char>('0' + part);
  };
  if (count > 8) {
    write_pairs(static_cast<uint32_t>(value % 100000000), 8);
    value /= 100000000;
  }
  write_pairs(static_cast<uint32_t>(value), static_cast<int>(end - out));
  return count;
}

// The value digits x 10^exponent laid out as nlohmann's format_buffer() lays it out: fixed
// notation while the decimal point falls within 15 digits of the first (".0" after an integer,
// "0.000" before a fraction down to 1e-4), else one digit, the rest after a point, and the exponent.
// `digits` has kPieceBytes readable bytes after any digit.
char* lay_out_number(const char* digits, int count, int exponent, char* out) {
  constexpr int kMinPoint = -4, kMaxPoint = std::numeric_limits<double>::digits10;
  constexpr char kZeros[] = "0000000000000000";
  const int point = count + exponent;  // where the decimal point falls, counted from the first digit
  if (count <= point && point <= kMaxPoint) {
    std::memcpy(out, digits, kPieceBytes);
    std::memcpy(out + count, kZeros, 16);
    out += point;
    return std::copy_n(".0", 2, out);
  }
  if (0 < point && point <= kMaxPoint) {
    std::memcpy(out, digits, kPieceBytes);
    out[point] = '.';
    std::memcpy(out + point + 1, digits + point, kPieceBytes);
    return out + count + 1;
  }
  if (kMinPoint < point && point <= 0) {
    std::memcpy(out, "0.000", 5);
    std::memcpy(out + 2 - point, digits, kPieceBytes);
    return out + 2 - point + count;
  }
  *out++ = digits[0];
  if (count > 1) {
    *out++ = '.';
    std::memcpy(out, digits + 1, kPieceBytes);
    out += count - 1;
  }
  *out++ = 'e';
  return write_exponent(point - 1, out);
}

// `before` < `after` as std::string compares them, most often told by their first bytes.
bool in_order(std::string_view before, std::string_view after) {
  if (!before.empty() && !after.empty() && before.front() != after.front())
    return static_cast<unsigned char>(before.front()) < static_cast<unsigned char>(after.front());
  return before < after;
}

}  // namespace

char* write_json_number(double number, char* out) {
  if (std::signbit(number)) {
    *out++ = '-';
    number = -number;
  }
  if (number == 0) return std::copy_n("0.0", 3, out);
  // Dragonbox (fmt's own shortest round-trip digits, through its internal API as nlohmann's
  // to_chars was): about a sixth of the time of nlohmann's grisu2, for ~16 numbers per prediction.
  const auto decimal = fmt::detail::dragonbox::to_decimal(number);
  std::array<char, 17 + kPieceBytes> digits{};
  const int count = write_digits(decimal.significand, digits.data());
  return lay_out_number(digits.data(), count, decimal.exponent, out);
}

JsonWriter::JsonWriter(size_t depth) : out_(nullptr) {
  for (size_t i = 0; i + 1 < depth; ++i) push_level(true).empty = false;
  if (depth > 0) push_level(false).empty = false;
}

JsonWriter::~JsonWriter() { flush(); }

JsonText JsonWriter::take_text() {
  save_keys();
  return std::exchange(text_, {});
}

void JsonWriter::reuse(JsonText storage) {
  text_ = std::move(storage);
  text_.size_ = 0;
}

char* JsonWriter::grow(size_t bytes) {
  const size_t capacity = std::max({2 * text_.capacity_, text_.size_ + bytes, size_t{4096}});
  auto data = std::make_unique_for_overwrite<char[]>(capacity);
  if (text_.size_ > 0) std::memcpy(data.get(), text_.data_.get(), text_.size_);
  text_.data_ = std::move(data);
  text_.capacity_ = capacity;
  return text_.data_.get() + text_.size_;
}

void JsonWriter::append(std::string_view text) {
  char* out = room(text.size());
  std::memcpy(out, text.data(), text.size());
  text_.size_ += text.size();
}

void JsonWriter::values_text(std::string_view text) {
  if (text.empty()) return;
  if (depth_ == 0 || top().object || after_key_) throw std::logic_error("JsonWriter: values outside an array");
  Level& level = top();
  if (level.empty && text.front() == ',') text.remove_prefix(1);
  level.empty = false;
  if (out_ == nullptr) {
    append(text);
    return;
  }
  flush();
  out_->write(text.data(), static_cast<std::streamsize>(text.size()));
}

void JsonWriter::flush() {
  if (out_ == nullptr) return;
  save_keys();
  out_->write(text_.data_.get(), static_cast<std::streamsize>(text_.size_));
  text_.size_ = 0;
}

// A line break and the indentation of up to kMaxFastDepth levels, copied whole (a copy of fixed
// size is a few moves), the part past this depth's indentation written over next.
constexpr size_t kMaxFastDepth = 32;
constexpr std::array<char, 1 + 2 * kMaxFastDepth> kLineBreak = [] {
  std::array<char, 1 + 2 * kMaxFastDepth> text{};
  text[0] = '\n';
  for (size_t i = 1; i < text.size(); ++i) text[i] = ' ';
  return text;
}();

char* JsonWriter::new_line(bool comma, size_t more) {
  char* out = room(1 + kLineBreak.size() + 2 * depth_ + more);
  *out = ',';
  out += comma ? 1 : 0;
  if (depth_ <= kMaxFastDepth) {
    std::memcpy(out, kLineBreak.data(), kLineBreak.size());
    return out + 1 + 2 * depth_;
  }
  *out++ = '\n';
  return std::fill_n(out, 2 * depth_, ' ');
}

char* JsonWriter::before_value(size_t more) {
  if (after_key_) {
    after_key_ = false;
    return room(more);
  }
  if (depth_ == 0) return room(more);
  Level& level = top();
  if (level.object) throw std::logic_error("JsonWriter: a value in an object needs a key");
  const bool first = level.empty;
  level.empty = false;
  return new_line(!first, more);
}

std::string_view JsonWriter::last_key(const Level& level) const {
  if (level.key_saved) return level.saved_key;
  return {text_.data_.get() + level.key_offset, level.key_size};
}

void JsonWriter::save_keys() {
  for (size_t i = 0; i < depth_; ++i) {
    Level& level = levels_[i];
    if (level.key_saved) continue;
    level.saved_key.assign(last_key(level));
    level.key_saved = true;
  }
}

void JsonWriter::key(std::string_view name) {
  if (depth_ == 0 || !top().object || after_key_)
    throw std::logic_error(fmt::format("JsonWriter: key \"{}\" outside an object", name));
  Level& level = top();
  if (!level.empty && !in_order(last_key(level), name))
    throw std::logic_error(fmt::format("JsonWriter: key \"{}\" after \"{}\" (nlohmann sorts keys)", name, last_key(level)));
  const bool first = level.empty;
  level.empty = false;
  after_key_ = true;
  char* out = new_line(!first, name.size() + 4);
  char* quote = out++;
  *quote = '"';
  if (copy_plain(name, out)) {
    // The key stays in the text, unescaped, until the text goes (save_keys).
    level.key_offset = static_cast<size_t>(out - text_.data_.get());
    level.key_size = name.size();
    level.key_saved = false;
    out += name.size();
    std::memcpy(out, "\": ", 3);
    wrote_to(out + 3);
    return;
  }
  level.saved_key.assign(name);
  level.key_saved = true;
  wrote_to(quote);
  write_string(name);
  append(": ");
}

void JsonWriter::open(char bracket, bool object) {
  char* out = before_value(1);
  *out++ = bracket;
  wrote_to(out);
  push_level(object);
}

void JsonWriter::close(char bracket) {
  const bool empty = top().empty;
  --depth_;
  char* out = empty ? room(1) : new_line(false, 1);
  *out++ = bracket;
  wrote_to(out);
  if (depth_ == 0 || text_.size_ > kFlushBytes) flush();
}

JsonWriter::Level& JsonWriter::push_level(bool object) {
  if (depth_ == levels_.size()) levels_.emplace_back();
  Level& level = levels_[depth_++];
  level.object = object;
  level.empty = true;
  level.key_size = 0;
  level.key_saved = false;
  return level;
}

void JsonWriter::begin_object() { open('{', true); }
void JsonWriter::end_object() { close('}'); }
void JsonWriter::begin_array() { open('[', false); }
void JsonWriter::end_array() { close(']'); }

void JsonWriter::value(double number) {
  char* out = before_value(kMaxJsonNumberChars);
  wrote_to(std::isfinite(number) ? write_json_number(number, out) : std::copy_n("null", 4, out));
}

void JsonWriter::value(std::int64_t number) {
  const fmt::format_int digits(number);
  write_plain({digits.data(), digits.size()});
}

void JsonWriter::value(std::size_t number) {
  const fmt::format_int digits(number);
  write_plain({digits.data(), digits.size()});
}

void JsonWriter::value(bool flag) { write_plain(flag ? "true" : "false"); }

void JsonWriter::value(std::string_view text) {
  wrote_to(before_value(0));
  write_string(text);
}

void JsonWriter::write_plain(std::string_view text) {
  char* out = before_value(text.size());
  std::memcpy(out, text.data(), text.size());
  wrote_to(out + text.size());
}

void JsonWriter::write_string(std::string_view text) {
  char* out = room(text.size() + 2);
  *out = '"';
  if (copy_plain(text, out + 1)) {
    out[text.size() + 1] = '"';
    wrote_to(out + text.size() + 2);
  } else {
    append(nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
}

void JsonWriter::value(const std::optional<double>& number) {
  if (number)
    value(*number);
  else
    null();
}

void JsonWriter::null() { write_plain("null"); }

}  // namespace roofcast
