#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast {

// A finite `number` as JsonWriter writes it: the shortest digits that read back as `number`
// (fmt's Dragonbox), laid out as nlohmann's dump() lays out its own digits ("1.0", "0.001",
// "1e-05", "1.5e+300", "-0.0"). nlohmann's grisu2 digits are the shortest for almost every
// double; where they are not, these are shorter and read back the same. Writes at most
// kMaxJsonNumberChars bytes at `out` (some past the number, as room to write it fast) and
// returns the number's end.
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

// Writes JSON as it goes, byte for byte as json_text() (formats/json_text.hpp: nlohmann::json's
// dump(2), invalid UTF-8 replaced by U+FFFD) writes the same document (numbers aside, where
// write_json_number's digits are shorter), without building the document first: `predict` on
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

  // A key and its value.
  template <typename T>
  void member(std::string_view name, const T& v) {
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
  };
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
  // for `more` bytes.
  char* new_line(bool comma, size_t more);
  void open(char bracket, bool object);
  void close(char bracket);
  void write_plain(std::string_view text);  // a value that is its own text (number, literal)
  void write_string(std::string_view text);

  std::ostream* out_;  // null: the text is held for take_text()
  JsonText text_;  // written to out_ in pieces of about kFlushBytes
  // The open levels are levels_[0, depth_); those above stay, their saved_key's storage kept
  // for the next object at their depth (a million predictions open eight objects each).
  std::vector<Level> levels_;
  size_t depth_ = 0;
  bool after_key_ = false;
};

}  // namespace roofcast
