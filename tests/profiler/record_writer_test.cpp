// The collector's record files (issue 27): created exclusively, never appended to.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "record_writer.hpp"
#include "run_command.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;

TEST_CASE("a record file of this pid from another process is left alone: this process writes its own") {
  const fs::path folder = roofcast::testing::fresh_folder("record-writer");
  const fs::path earlier = folder / ("roofcast-timing-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(earlier) << "{\"type\":\"process\",\"pid\":1}\n";
  {
    roofcast::profiler::RecordWriter writer(folder.string(), "timing");
    writer.write({{"type", "launch"}});
    writer.flush();
  }
  CHECK(roofcast::testing::file_text(earlier) == "{\"type\":\"process\",\"pid\":1}\n");
  const fs::path own = folder / ("roofcast-timing-" + std::to_string(::getpid()) + ".2.jsonl");
  REQUIRE(fs::exists(own));
  const std::string text = roofcast::testing::file_text(own);
  CHECK(text.find("\"process\"") < text.find("\"launch\""));  // its own header, then the launch
  CHECK(text.find("\"launch\"") != std::string::npos);
}
