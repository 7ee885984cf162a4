#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"

TEST_CASE("files are replaced atomically and read back whole") {
  const auto folder = std::filesystem::temp_directory_path() / ("roofcast-files-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto path = folder / "out.json";
  roofcast::write_file_atomically(path, "first");
  roofcast::write_file_atomically(path, "second version");
  CHECK(roofcast::read_text_file(path) == "second version");
  // No temporary file is left behind.
  CHECK(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator{}) == 1);
  std::filesystem::remove_all(folder);
}

TEST_CASE("an unwritable destination keeps nothing half-written and names the file") {
  CHECK_THROWS_WITH(roofcast::write_file_atomically("/nonexistent-folder/x.json", "data"),
                    Catch::StartsWith("/nonexistent-folder/x.json: cannot write"));
}

TEST_CASE("a missing file is named") {
  CHECK_THROWS_AS(roofcast::read_text_file("/nonexistent/profile.json"), roofcast::InputError);
  CHECK_THROWS_WITH(roofcast::read_text_file("/nonexistent/profile.json"),
                    Catch::StartsWith("/nonexistent/profile.json: cannot open"));
}
