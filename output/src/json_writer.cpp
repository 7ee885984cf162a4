#include "roofcast/output/json_writer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <nlohmann/json.hpp>

#include "roofcast/output/shortest_number.hpp"

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

// `before` < `after` as std::string compares them (bytes unsigned, a prefix first): keys are
// short, compared 8 bytes at a time without a call to memcmp.
bool in_order(std::string_view before, std::string_view after) {
  const size_t common = std::min(before.size(), after.size());
  size_t i = 0;
  for (; i + 8 <= common; i += 8) {
    const uint64_t differ = load<uint64_t>(before.data() + i) ^ load<uint64_t>(after.data() + i);
    if (differ != 0) {
      // The first differing byte (the lowest in memory) decides.
      i += static_cast<size_t>(std::endian::native == std::endian::little ? std::countr_zero(differ) / 8
                                                                          : std::countl_zero(differ) / 8);
      return static_cast<unsigned char>(before[i]) < static_cast<unsigned char>(after[i]);
    }
  }
  for (; i < common; ++i)
    if (before[i] != after[i]) return static_cast<unsigned char>(before[i]) < static_cast<unsigned char>(after[i]);
  return before.size() < after.size();
}

// The errors of key(), out of its way (it runs for every key of a million predictions).
[[noreturn, gnu::cold, gnu::noinline]] void throw_key_out_of_order(std::string_view name, std::string_view last) {
  throw std::logic_error(fmt::format("JsonWriter: key \"{}\" after \"{}\" (nlohmann sorts keys)", name, last));
}

}  // namespace

void JsonWriter::throw_key_outside_object(std::string_view name) {
  throw std::logic_error(fmt::format("JsonWriter: key \"{}\" outside an object", name));
}

uint64_t JsonWriter::key_order(std::string_view name) {
  if (name.size() >= 8) {
    const auto first = load<uint64_t>(name.data());
    return std::endian::native == std::endian::little ? __builtin_bswap64(first) : first;
  }
  uint64_t order = 0;
  for (size_t i = 0; i < name.size(); ++i) order |= uint64_t{static_cast<unsigned char>(name[i])} << (56 - 8 * i);
  return order;
}

void JsonWriter::check_key_order(const Level& level, std::string_view name) {
  if (!in_order(last_key(level), name)) throw_key_out_of_order(name, last_key(level));
}

char* write_json_number(double number, char* out) { return write_shortest_number(number, out, /*mark_whole=*/true); }

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
  ++flushes_;
  out_->write(text_.data_.get(), static_cast<std::streamsize>(text_.size_));
  text_.size_ = 0;
}

char* JsonWriter::deep_new_line(char* out) {
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
  if (depth_ == 0 || !top().object || after_key_) throw_key_outside_object(name);
  Level& level = top();
  const uint64_t order = key_order(name);
  check_key(level, name, order);
  level.key_order = order;
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

// A recording starts and ends between members of an object, and the text between its ends is
// still here: its members, each after its separator (",\n" and the indentation).
size_t JsonWriter::begin_record(JsonReplay& replay) {
  if (depth_ == 0 || !top().object || after_key_ || top().empty)
    throw std::logic_error("JsonWriter: a recording starts after a member of an object");
  replay.text_.clear();
  replay.depth_ = depth_;
  replay.key_before_.assign(last_key(top()));
  replay.flushes_ = flushes_;
  return text_.size_;
}

void JsonWriter::end_record(size_t begin, JsonReplay& replay) {
  if (depth_ != replay.depth_ || !top().object || after_key_)
    throw std::logic_error("JsonWriter: a recording ends in the object it started in, after a member");
  if (flushes_ != replay.flushes_) return;
  replay.text_.assign(text_.data_.get() + begin, text_.size_ - begin);
  replay.key_after_.assign(last_key(top()));
}

bool JsonWriter::replay(const JsonReplay& replay) {
  if (replay.text_.empty() || depth_ != replay.depth_ || !top().object || after_key_ || top().empty ||
      last_key(top()) != replay.key_before_)
    return false;
  append(replay.text_);
  Level& level = top();
  level.saved_key.assign(replay.key_after_);
  level.key_saved = true;
  level.key_order = key_order(replay.key_after_);
  return true;
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
  if (!std::isfinite(number)) {
    wrote_to(std::copy_n("null", 4, out));
    return;
  }
  const auto bits = std::bit_cast<uint64_t>(number);
  RecentNumber& recent = recent_numbers_[(bits * 0x9e3779b97f4a7c15u) >> (64 - kRecentNumberBits)];
  if (recent.size == 0 || recent.bits != bits) {
    recent.bits = bits;
    recent.size = static_cast<size_t>(write_json_number(number, recent.text.data()) - recent.text.data());
  }
  std::memcpy(out, recent.text.data(), recent.text.size());  // the whole slot: a copy of fixed size
  wrote_to(out + recent.size);
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
