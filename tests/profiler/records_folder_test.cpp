// The records folder of `roofcast profile` (issue 27): a folder holding another run's records is
// never read as this run's.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <set>
#include <vector>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/profiler/records_folder.hpp"
#include "test_files.hpp"

using roofcast::profiler::RecordsFolder;
namespace fs = std::filesystem;

TEST_CASE("records folder (profile --records-dir): a new or empty folder is used itself, and claimed") {
  const fs::path base = roofcast::testing::fresh_folder("records-new");
  const RecordsFolder created((base / "new" / "records").string());
  CHECK(created.path() == (base / "new" / "records").string());
  CHECK_FALSE(created.note());
  CHECK(fs::exists(base / "new" / "records" / RecordsFolder::kClaimMarker));

  fs::create_directories(base / "empty");
  const RecordsFolder empty((base / "empty").string());
  CHECK(empty.path() == (base / "empty").string());
  CHECK_FALSE(empty.note());
}

TEST_CASE("records folder (profile --records-dir): a folder that holds anything gets a new subfolder for each run, said in a note") {
  const fs::path base = roofcast::testing::fresh_folder("records-reused");
  {
    const RecordsFolder first(base.string());
    std::ofstream(fs::path(first.path()) / "roofcast-timing-123.jsonl") << "{}\n";
  }
  const RecordsFolder second(base.string());
  const RecordsFolder third(base.string());
  CHECK(fs::path(second.path()).parent_path() == base);
  CHECK(fs::path(second.path()).filename().string().starts_with("run-"));
  CHECK(second.path() != third.path());
  CHECK(fs::is_empty(second.path()));
  REQUIRE(second.note());
  CHECK(*second.note() == "--records-dir " + base.string() + " holds another run's records: this run's are in " +
                              second.path());
  // The first run's records stay as they were.
  CHECK(fs::exists(base / "roofcast-timing-123.jsonl"));

  // A folder a user filled with other things, or a claimed folder an earlier run left empty.
  const fs::path other = roofcast::testing::fresh_folder("records-other");
  std::ofstream(other / "notes.txt") << "mine";
  CHECK(RecordsFolder(other.string()).path() != other.string());
  const fs::path claimed = roofcast::testing::fresh_folder("records-claimed");
  { const RecordsFolder earlier(claimed.string()); }
  CHECK(RecordsFolder(claimed.string()).note());
}

TEST_CASE("records folder (profile --records-dir): runs started together into one new folder each get their own") {
  const fs::path base = roofcast::testing::fresh_folder("records-together") / "records";
  std::vector<std::future<std::unique_ptr<RecordsFolder>>> runs;
  for (int i = 0; i < 8; ++i)
    runs.push_back(std::async(std::launch::async, [&] { return std::make_unique<RecordsFolder>(base.string()); }));
  std::set<std::string> paths;
  int in_the_folder_itself = 0;
  for (auto& run : runs) {
    const auto folder = run.get();
    paths.insert(folder->path());
    if (folder->path() == base.string()) ++in_the_folder_itself;
  }
  CHECK(paths.size() == 8);
  CHECK(in_the_folder_itself <= 1);
}

TEST_CASE("records folder (profile --records-dir): a path that is not a folder is an error naming it, the temporary folder goes") {
  const fs::path base = roofcast::testing::fresh_folder("records-file");
  std::ofstream(base / "file") << "x";
  CHECK_THROWS_WITH(RecordsFolder((base / "file").string()),
                    Catch::StartsWith("profile: --records-dir " + (base / "file").string() + ": "));
  std::string temporary;
  {
    const RecordsFolder own("");
    temporary = own.path();
    CHECK(fs::is_directory(temporary));
  }
  CHECK_FALSE(fs::exists(temporary));
}
