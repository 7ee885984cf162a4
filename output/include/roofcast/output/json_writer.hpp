#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast {

// A finite `number` as JsonWriter writes it: fmt's shortest form that reads back as `number`
// (Dragonbox; "{}"), with ".0" after a whole number as nlohmann marks a double ("1.0", "0.001",
// "1e-05", "1.5e+300", "-0.0", "1500000000000000.0"). It differs from nlohmann's dump() where
// grisu2's digits are not the shortest (these are shorter and read back the same) and from 10^15
// to 10^16, which nlohmann writes with an exponent (formats.md, prediction version 3). Writes
// at most kMaxJsonNumberChars bytes at `out` and returns the number's end.
constexpr size_t kMaxJsonNumberChars = 40;
char* write_json_number(double number, char* out);

// Text a JsonWriter made; its storage can go to another writer to write over (JsonWriter::reuse).
class JsonText {
 public:
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  friend class JsonWriter;
  std::unique_ptr<char[]> data_;  // not cleared as it grows (std::string would fill it with zeros)
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// A key known when the program is compiled, written as `"name"_key` (using namespace
// roofcast::json_literals): its text needs no escaping (printable ASCII but quote and backslash,
// at most kMaxSize bytes, else it does not compile), so JsonWriter copies it, quoted, as it is.
class JsonKey {
 public:
  static constexpr size_t kMaxSize = 40;
  consteval JsonKey(const char* name, size_t size) : size_(size) {
    if (size > kMaxSize) throw "JsonKey: longer than kMaxSize";
    text_[0] = '"';
    for (size_t i = 0; i < size; ++i) {
      const auto byte = static_cast<unsigned char>(name[i]);
      if (byte < 0x20 || byte >= 0x7f || byte == '"' || byte == '\\') throw "JsonKey: a byte that needs escaping";
      text_[1 + i] = name[i];
      if (i < 8) order_ |= uint64_t{byte} << (56 - 8 * i);
    }
    text_[1 + size] = '"';
    text_[2 + size] = ':';
    text_[3 + size] = ' ';
  }
  std::string_view name() const { return {text_.data() + 1, size_}; }

 private:
  friend class JsonWriter;
  std::array<char, kMaxSize + 8> text_{};  // "name": and padding, copied whole
  size_t size_ = 0;
  uint64_t order_ = 0;  // JsonWriter::key_order(name)
};

namespace json_literals {
template <size_t N>
struct KeyText {
  consteval KeyText(const char (&name)[N]) { std::copy_n(name, N, text); }
  char text[N];
};
// One constant per key: a key is passed by its address, not copied onto the stack at each use.
template <KeyText name>
inline constexpr JsonKey kJsonKey(name.text, sizeof name.text - 1);
template <KeyText name>
consteval const JsonKey& operator""_key() {
  return kJsonKey<name>;
}
}  // namespace json_literals

// Members of an object as one JsonWriter wrote them, to write again where it is in the same
// place (the same depth, after the same key): a kernel's own numbers, the same in its
// prediction on every device, are formatted once (JsonWriter::record, JsonWriter::replay).
class JsonReplay {
 public:
  bool empty() const { return text_.empty(); }

 private:
  friend class JsonWriter;
  std::string text_;
  size_t depth_ = 0;
  std::string key_before_, key_after_;
  size_t flushes_ = 0;
};

// Writes JSON as it goes, byte for byte as json_text() (formats/json_text.hpp: nlohmann::json's
// dump(2), invalid UTF-8 replaced by U+FFFD) writes the same document (numbers aside, where
// write_json_number writes them otherwise), without building the document first: `predict` on
// 100,000 kernels x 10 devices streams a million predictions instead of holding them (and a DOM
// of them) in memory.
//
// Keys of an object must come in nlohmann's order (sorted by std::string's <); a key out of
// order is a programming error and throws std::logic_error. Non-finite numbers are written as
// null, as nlohmann writes them.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(&out) {}
  // A writer of the values of an array `depth` levels deep (inside objects), after values made
  // elsewhere: each value starts with its separator (",\n" and the indentation). It holds its
  // text, which take_text() hands to the array's own writer's values_text(), in order (values
  // made on several threads).
  explicit JsonWriter(size_t depth);
  JsonText take_text();
  // Writes into `storage` from now on (its text written over); for a depth writer.
  void reuse(JsonText storage);
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  ~JsonWriter();  // writes what is still buffered

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);
  void key(const JsonKey& name);

  void value(double number);
  void value(int number) { value(static_cast<std::int64_t>(number)); }
  void value(std::int64_t number);
  void value(std::size_t number);
  void value(bool flag);
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(const std::string& text) { value(std::string_view(text)); }
  void value(const std::optional<double>& number);
  void null();

  // Values that a JsonWriter(out, depth) made for the array open here, at that depth: the
  // first value of the array loses its leading comma.
  void values_text(std::string_view text);

  // Members of the open object written by `write_members()`, kept in `replay` too (left empty
  // where they cannot be replayed: none written, or the text flushed meanwhile).
  template <typename WriteMembers>
  void record(JsonReplay& replay, WriteMembers write_members) {
    const size_t begin = begin_record(replay);
    write_members();
    end_record(begin, replay);
  }
  // Writes what was recorded if this writer is where it was then, else returns false.
  bool replay(const JsonReplay& replay);

  // A key and its value.
  template <typename T>
  void member(std::string_view name, const T& v) {
    key(name);
    value(v);
  }
  template <typename T>
  void member(const JsonKey& name, const T& v) {
    key(name);
    value(v);
  }

 private:
  struct Level {
    bool object = false;
    bool empty = true;
    // The last key, for the order check: key_size bytes at key_offset in the text (where it was
    // written as it is), or in saved_key once that text is gone or where it was escaped.
    size_t key_offset = 0;
    size_t key_size = 0;
    bool key_saved = false;
    std::string saved_key;
    uint64_t key_order = 0;  // key_order() of the last key
  };
  // The first 8 bytes of `name` as a big-endian number, zero padded: where two keys' numbers
  // differ, they are in the order the keys are (std::string's); where equal, the keys decide.
  static uint64_t key_order(std::string_view name);
  // Whether `name` may follow the level's last key; throws where it may not.
  void check_key(const Level& level, std::string_view name, uint64_t order) {
    if (level.empty || level.key_order < order) return;
    check_key_order(level, name);
  }
  void check_key_order(const Level& level, std::string_view name);
  size_t begin_record(JsonReplay& replay);
  void end_record(size_t begin, JsonReplay& replay);
  size_t flushes_ = 0;  // times the text went out (a recording across one is incomplete)
  [[noreturn, gnu::cold]] static void throw_key_outside_object(std::string_view name);
  Level& push_level(bool object);
  std::string_view last_key(const Level& level) const;
  void save_keys();  // the open levels' last keys, out of the text about to go
  Level& top() { return levels_[depth_ - 1]; }
  static constexpr size_t kFlushBytes = 1 << 16;
  void flush();
  // Where `bytes` more can be written, at the end of the text; wrote_to() then moves the end
  // past what was written.
  char* room(size_t bytes) {
    return text_.capacity_ - text_.size_ >= bytes ? text_.data_.get() + text_.size_ : grow(bytes);
  }
  char* grow(size_t bytes);
  void wrote_to(const char* end) { text_.size_ = static_cast<size_t>(end - text_.data_.get()); }
  void append(std::string_view text);
  // The separator and indentation before a value (none after a key); returns where the value
  // goes, with room for `more` bytes.
  char* before_value(size_t more);
  // An optional comma, a line break and this depth's indentation; returns their end, with room
  // for `more` bytes. A line break and the indentation of up to kMaxFastDepth levels are copied
  // whole (a copy of fixed size is a few moves), the part past this depth's indentation written
  // over next.
  char* new_line(bool comma, size_t more) {
    char* out = room(1 + kLineBreak.size() + 2 * depth_ + more);
    *out = ',';
    out += comma ? 1 : 0;
    if (depth_ < 8) {  // a prediction's depths: one 16-byte piece
      std::memcpy(out, kLineBreak.data(), 16);
      return out + 1 + 2 * depth_;
    }
    return deep_new_line(out);
  }
  char* deep_new_line(char* out);
  static constexpr size_t kMaxFastDepth = 32;
  static constexpr std::array<char, 1 + 2 * kMaxFastDepth> kLineBreak = [] {
    std::array<char, 1 + 2 * kMaxFastDepth> text{};
    text[0] = '\n';
    for (size_t i = 1; i < text.size(); ++i) text[i] = ' ';
    return text;
  }();
  void open(char bracket, bool object);
  void close(char bracket);
  void write_plain(std::string_view text);  // a value that is its own text (number, literal)
  void write_string(std::string_view text);

  // The text of numbers written lately (write_json_number's), by their bits, in a slot chosen
  // by a hash of them: a kernel's own numbers (its parameters, its work) come again in its
  // prediction on every device, and a look-up costs a tenth of the shortest form's search.
  struct RecentNumber {
    uint64_t bits = 0;
    size_t size = 0;  // 0: an empty slot
    std::array<char, kMaxJsonNumberChars> text;
  };
  static constexpr size_t kRecentNumberBits = 8;  // 256 slots
  std::array<RecentNumber, size_t{1} << kRecentNumberBits> recent_numbers_{};

  std::ostream* out_;  // null: the text is held for take_text()
  JsonText text_;  // written to out_ in pieces of about kFlushBytes
  // The open levels are levels_[0, depth_); those above stay, their saved_key's storage kept
  // for the next object at their depth (a million predictions open eight objects each).
  std::vector<Level> levels_;
  size_t depth_ = 0;
  bool after_key_ = false;
};

// Most keys of `predict --format json` (30 of a prediction's 37): a few compares and fixed-size
// copies, no escaping check.
inline void JsonWriter::key(const JsonKey& name) {
  if (depth_ == 0 || !top().object || after_key_) throw_key_outside_object(name.name());
  Level& level = top();
  check_key(level, name.name(), name.order_);
  const bool first = level.empty;
  level.empty = false;
  after_key_ = true;
  char* out = new_line(!first, name.text_.size());
  std::memcpy(out, name.text_.data(), name.text_.size());
  // The key stays in the text until the text goes (save_keys).
  level.key_offset = static_cast<size_t>(out + 1 - text_.data_.get());
  level.key_size = name.size_;
  level.key_saved = false;
  level.key_order = name.order_;
  wrote_to(out + name.size_ + 4);
}

}  // namespace roofcast
