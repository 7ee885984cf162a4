#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast {

// Writes JSON as it goes, byte for byte as json_text() (formats/json_text.hpp: nlohmann::json's
// dump(2), invalid UTF-8 replaced by U+FFFD) writes the same document, without building the
// document first: `predict` on 100,000 kernels x 10 devices streams a
// million predictions instead of holding them (and a DOM of them) in memory.
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
  std::string take_text() { return std::move(buffer_); }
  // Writes into `buffer` from now on (its text cleared, its capacity kept); for a depth writer.
  void reuse(std::string buffer) {
    buffer.clear();
    buffer_ = std::move(buffer);
  }
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
    std::string last_key;
  };
  static constexpr size_t kFlushBytes = 1 << 16;
  void flush();
  void before_value();
  void open(char bracket, bool object);
  void close(char bracket);
  void indent();
  void write_string(std::string_view text);

  std::ostream* out_;  // null: the text is held for take_text()
  std::string buffer_;  // written to out_ in pieces of about kFlushBytes
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace roofcast
