// The device profiles the repository ships (data/devices/, measured ones included) hold every
// bench key the pipes model reads: the list is the model's own (bench_keys.hpp), so a key the
// model starts reading fails here until the shipped profiles are benched again.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/bench_keys.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> shipped_device_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(ROOFCAST_SOURCE_DIR) / "data" / "devices"))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("shipped device profiles have every bench key the pipes model reads") {
  const auto files = shipped_device_files();
  REQUIRE(files.size() >= 6);
  size_t benched = 0;
  for (const auto& file : files) {
    const std::string text = roofcast::read_text_file(file.string());
    const auto device = roofcast::parse_device_profile(text, file.string());
    // The thesis' GPUs are its published tables (provenance "source"), not a bench of ours:
    // nothing can measure their other keys. Every profile `roofcast bench` wrote
    // (provenance "command") must have them all.
    const auto provenance = nlohmann::json::parse(text).value("provenance", nlohmann::json::object());
    if (!provenance.contains("command")) {
      CHECK(provenance.contains("source"));
      continue;
    }
    ++benched;
    const auto missing = roofcast::missing_bench_keys(device);
    INFO(fmt::format("{} lacks {}: bench it again (`roofcast bench --complete {}` on that GPU)",
                     fs::relative(file, ROOFCAST_SOURCE_DIR).string(), fmt::join(missing, ", "), file.string()));
    CHECK(missing.empty());
  }
  CHECK(benched >= 6);  // H100 and H200, whole and their MPS 50 % and 25 % partitions
}
