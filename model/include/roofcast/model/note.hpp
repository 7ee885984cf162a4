#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace roofcast {

// A note of a prediction (an input derived, a term left out): a string literal, held by its
// address, or text made for it. Most notes are literals, given to each of a million predictions
// (100,000 kernels x 10 devices): those allocate nothing. Made, like a string, from either.
class Note {
 public:
  Note() = default;
  template <std::size_t N>
  Note(const char (&literal)[N]) : literal_(literal) {}  // a literal's static storage outlives the note
  Note(std::string made) : made_(std::move(made)) {}

  std::string_view text() const { return made_.empty() ? literal_ : std::string_view(made_); }
  bool empty() const { return text().empty(); }

 private:
  std::string_view literal_;
  std::string made_;
};

}  // namespace roofcast
