#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofcast/model/note.hpp"

using namespace roofcast;

TEST_CASE("note: a literal is held by its address, made text by the note itself") {
  static constexpr char kLiteral[] = "no kernel_floor_us on this device: launch time not modelled";
  const Note fixed = kLiteral;
  CHECK(fixed.text().data() == kLiteral);  // not copied
  CHECK(fixed.text() == "no kernel_floor_us on this device: launch time not modelled");

  std::string text = "12.5 MB touched per launch fits in the 50.0 MB L2: DRAM traffic served by L2";
  const Note made = text;
  text.assign(text.size(), 'x');  // the note keeps its own copy
  CHECK(made.text() == "12.5 MB touched per launch fits in the 50.0 MB L2: DRAM traffic served by L2");

  std::vector<Note> notes;
  notes.push_back("a literal");
  notes.push_back(std::string("made, then moved with the vector"));
  for (int i = 0; i < 100; ++i) notes.push_back(std::string("more"));  // the vector grows: notes move
  CHECK(notes[0].text() == "a literal");
  CHECK(notes[1].text() == "made, then moved with the vector");

  CHECK(Note().empty());
  CHECK(Note("").empty());
  CHECK(Note(std::string()).empty());
  CHECK_FALSE(fixed.empty());
}
