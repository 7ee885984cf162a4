#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "test_files.hpp"

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

TEST_CASE("a text file is mapped or read whole, whatever it is, and named where it cannot be") {
  const auto folder = std::filesystem::temp_directory_path() / ("roofcast-text-file-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto regular = folder / "profile.json", empty = folder / "empty.json", fifo = folder / "fifo.json";
  const std::string text = std::string(100000, 'x') + "\0 and after a NUL";  // more than a page
  std::ofstream(regular, std::ios::binary) << text;
  std::ofstream(empty, std::ios::binary).flush();
  CHECK(roofcast::TextFile(regular).text() == text);
  CHECK(roofcast::TextFile(empty).text().empty());
  // A file large enough for PageBuffer's mapped buffer, its bytes all different from the start.
  std::string large(9 << 20, '\0');
  for (size_t i = 0; i < large.size(); ++i) large[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  const auto large_file = folder / "large.json";
  std::ofstream(large_file, std::ios::binary) << large;
  CHECK(roofcast::TextFile(large_file).text() == large);

  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const pid_t writer = ::fork();
  REQUIRE(writer >= 0);
  if (writer == 0) {
    std::ofstream(fifo) << "through a FIFO";
    ::_exit(0);
  }
  CHECK(roofcast::TextFile(fifo).text() == "through a FIFO");
  ::waitpid(writer, nullptr, 0);

  CHECK_THROWS_WITH(roofcast::TextFile(folder), Catch::StartsWith(folder.string() + ": is a folder"));
  CHECK_THROWS_WITH(roofcast::TextFile("/nonexistent/profile.json"),
                    Catch::StartsWith("/nonexistent/profile.json: cannot open"));
  std::filesystem::remove_all(folder);
}

namespace {

namespace fs = std::filesystem;

size_t entries_in(const fs::path& folder) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator{}));
}

}  // namespace

TEST_CASE("a symbolic link, FIFO, device or folder is refused as a target and kept as it was") {
  const auto folder = roofcast::testing::fresh_folder("special-targets");
  const auto kept = folder / "kept.json";
  roofcast::write_file_atomically(kept, "original");
  SECTION("a symbolic link") {
    const auto link = folder / "link.json";
    fs::create_symlink(kept, link);
    CHECK_THROWS_WITH(roofcast::write_file_atomically(link, "new"),
                      link.string() + ": is a symbolic link; roofcast replaces only regular files (give another "
                                      "path, or - for standard output)");
    CHECK(fs::is_symlink(link));
    CHECK(roofcast::read_text_file(kept) == "original");
  }
  SECTION("a FIFO (never opened: the check does not block)") {
    const auto fifo = folder / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_WITH(roofcast::write_file_atomically(fifo, "new"), Catch::StartsWith(fifo.string() + ": is a FIFO"));
    CHECK(fs::is_fifo(fifo));
  }
  SECTION("a character device") {
    CHECK_THROWS_WITH(roofcast::write_file_atomically("/dev/null", "new"),
                      Catch::StartsWith("/dev/null: is a character device"));
  }
  SECTION("a folder") {
    fs::create_directory(folder / "sub");
    CHECK_THROWS_WITH(roofcast::write_file_atomically(folder / "sub", "new"),
                      Catch::StartsWith((folder / "sub").string() + ": is a folder"));
    CHECK(fs::is_directory(folder / "sub"));
  }
  CHECK(roofcast::read_text_file(kept) == "original");
  fs::remove_all(folder);
}

TEST_CASE("output files appear together at commit, or not at all") {
  const auto folder = roofcast::testing::fresh_folder("output-files");
  const auto first = folder / "first.json";
  const auto second = folder / "second.md";
  roofcast::write_file_atomically(first, "old first");
  SECTION("a failure before commit changes nothing and leaves no temporary") {
    {
      roofcast::OutputFiles outputs;
      outputs.add(first, "new first");
      CHECK(roofcast::read_text_file(first) == "old first");  // nothing changes before commit
      CHECK_THROWS_WITH(outputs.add(folder / "missing" / "second.md", "new second"),
                        Catch::StartsWith((folder / "missing" / "second.md").string() + ": cannot write"));
    }
    CHECK(roofcast::read_text_file(first) == "old first");
    CHECK(entries_in(folder) == 1);
  }
  SECTION("a commit replaces every file") {
    roofcast::OutputFiles outputs;
    outputs.add(first, "new first");
    outputs.add(second, "new second");
    outputs.commit();
    CHECK(roofcast::read_text_file(first) == "new first");
    CHECK(roofcast::read_text_file(second) == "new second");
    CHECK(entries_in(folder) == 2);
  }
  SECTION("a workspace holds files another program writes, and goes at commit") {
    roofcast::OutputFiles outputs;
    const auto workspace = outputs.workspace(folder);
    outputs.add_from_workspace(workspace, second, "ours");
    outputs.add_from_workspace(workspace, folder / "theirs.txt");
    std::ofstream(workspace / "theirs.txt") << "written by another program";
    outputs.commit();
    CHECK(roofcast::read_text_file(second) == "ours");
    CHECK(roofcast::read_text_file(folder / "theirs.txt") == "written by another program");
    CHECK(entries_in(folder) == 3);
  }
  SECTION("a file another program never wrote fails the commit, which then changes nothing") {
    {
      roofcast::OutputFiles outputs;
      outputs.add(first, "new first");
      const auto workspace = outputs.workspace(folder);
      outputs.add_from_workspace(workspace, folder / "chart.svg");
      CHECK_THROWS_WITH(outputs.commit(), Catch::StartsWith((folder / "chart.svg").string() + ": cannot write"));
    }
    CHECK(roofcast::read_text_file(first) == "old first");
    CHECK(entries_in(folder) == 1);
  }
  fs::remove_all(folder);
}

TEST_CASE("SIGTERM, SIGINT or SIGHUP during a write removes the temporary files and still ends the process") {
  const int signal_number = GENERATE(SIGTERM, SIGINT, SIGHUP);
  const auto folder = roofcast::testing::fresh_folder("signal-" + std::to_string(signal_number));
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    roofcast::OutputFiles outputs;
    outputs.add(folder / "out.json", "staged");
    const auto workspace = outputs.workspace(folder);
    outputs.add_from_workspace(workspace, folder / "chart.svg", "staged in a workspace");
    ::raise(signal_number);
    ::_exit(0);  // not reached: the signal ends the process
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == signal_number);
  CHECK(entries_in(folder) == 0);
  fs::remove_all(folder);
}

TEST_CASE("a file written piece by piece appears whole at commit, an exception on the way leaves nothing") {
  const auto folder = roofcast::testing::fresh_folder("output-pieces");
  {
    roofcast::OutputFiles outputs;
    outputs.add(folder / "m.json", [](const roofcast::OutputFiles::Write& write) {
      write("{\"a\": ");
      write("1}\n");
    });
    CHECK(entries_in(folder) == 1);  // its temporary
    CHECK_FALSE(fs::exists(folder / "m.json"));
    outputs.commit();
  }
  CHECK(roofcast::read_text_file(folder / "m.json") == "{\"a\": 1}\n");
  {
    roofcast::OutputFiles outputs;
    CHECK_THROWS_WITH(outputs.add(folder / "m.json",
                                  [](const roofcast::OutputFiles::Write& write) {
                                    write("half");
                                    throw roofcast::InputError("in.json: bad");
                                  }),
                      "in.json: bad");
  }
  CHECK(roofcast::read_text_file(folder / "m.json") == "{\"a\": 1}\n");
  CHECK(entries_in(folder) == 1);
  fs::remove_all(folder);
}

TEST_CASE("a folder output replaces its target whole at commit: nothing of the earlier content stays") {
  const auto base = roofcast::testing::fresh_folder("output-folder");
  const auto target = base / "report";
  fs::create_directories(target / "charts");
  std::ofstream(target / "index.html") << "old page";
  std::ofstream(target / "charts" / "old.svg") << "old chart";
  {
    roofcast::OutputFiles outputs;
    const auto staging = outputs.add_folder(target.string() + "/");
    CHECK(staging.parent_path() == base);
    CHECK(staging.filename().string().starts_with(".report.roofcast-"));
    fs::create_directories(staging / "charts");
    outputs.add(staging / "index.html", "new page");
    outputs.add(staging / "charts" / "new.svg", "new chart");
    CHECK(roofcast::read_text_file(target / "index.html") == "old page");  // nothing changes before commit
    outputs.commit();
  }
  CHECK(roofcast::read_text_file(target / "index.html") == "new page");
  CHECK(roofcast::read_text_file(target / "charts" / "new.svg") == "new chart");
  CHECK_FALSE(fs::exists(target / "charts" / "old.svg"));
  CHECK(entries_in(base) == 1);  // no staging folder, no former folder left beside it
  {
    roofcast::OutputFiles outputs;
    const auto staging = outputs.add_folder(target);
    outputs.add(staging / "index.html", "dropped");
  }
  CHECK(roofcast::read_text_file(target / "index.html") == "new page");
  CHECK(entries_in(base) == 1);
  // Into a new folder.
  {
    roofcast::OutputFiles outputs;
    outputs.add(outputs.add_folder(base / "new" / "report") / "index.html", "first");
    outputs.commit();
  }
  CHECK(roofcast::read_text_file(base / "new" / "report" / "index.html") == "first");
  fs::remove_all(base);
}

TEST_CASE("a folder output is refused where it is a link, a file, or the current folder") {
  const auto base = roofcast::testing::fresh_folder("output-folder-refused");
  fs::create_directories(base / "elsewhere");
  fs::create_directory_symlink(base / "elsewhere", base / "link");
  std::ofstream(base / "file") << "x";
  roofcast::OutputFiles outputs;
  CHECK_THROWS_WITH(outputs.add_folder(base / "link"), Catch::EndsWith("link: is a symbolic link; roofcast replaces "
                                                                       "only folders here (give another path)"));
  CHECK_THROWS_WITH(outputs.add_folder(base.string() + "/link/"), Catch::Contains("is a symbolic link"));
  CHECK_THROWS_WITH(outputs.add_folder(base / "file"), Catch::Contains("file: is a file"));
  CHECK_THROWS_WITH(outputs.add_folder("."), ".: is the current folder or holds it; roofcast replaces it whole: give "
                                             "another folder");
  CHECK_THROWS_WITH(outputs.add_folder("/"), Catch::StartsWith("/: cannot be replaced as a whole"));
  fs::remove_all(base);
}

TEST_CASE("temporaries a killed process left are removed by the next write of the same target, and only those") {
  const auto folder = roofcast::testing::fresh_folder("stale-temporaries");
  const auto target = folder / "out.json";
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    roofcast::OutputFiles outputs;
    outputs.add(target, "staged");
    outputs.add_folder(folder / "report");
    ::raise(SIGKILL);  // no handler runs: the temporaries stay
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(entries_in(folder) == 2);
  // One held by a live process (this one), and names that are not ours.
  const auto held = folder / ".out.json.roofcast-HeldHeld";
  std::ofstream(held) << "in use";
  const int descriptor = ::open(held.c_str(), O_RDONLY);
  REQUIRE(::flock(descriptor, LOCK_EX) == 0);
  for (const char* name : {".out.json.AbCdEfGh", ".out.json.roofcast-short", ".other.json.roofcast-AbCdEfGh"})
    std::ofstream(folder / name) << "not ours to remove";
  {
    roofcast::OutputFiles outputs;
    outputs.add(target, "written");
    outputs.commit();
  }
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.insert(entry.path().filename().string());
  CHECK(names.size() == 6);  // the killed report's staging folder is not out.json's: it stays
  for (const char* kept : {"out.json", ".out.json.roofcast-HeldHeld", ".out.json.AbCdEfGh", ".out.json.roofcast-short",
                           ".other.json.roofcast-AbCdEfGh"})
    CHECK(names.contains(kept));
  {
    roofcast::OutputFiles outputs;
    outputs.add(outputs.add_folder(folder / "report") / "index.html", "page");
    outputs.commit();
  }
  names.clear();
  for (const auto& entry : fs::directory_iterator(folder)) names.insert(entry.path().filename().string());
  CHECK(names.size() == 6);  // the stale staging folder went; the report came
  CHECK(names.contains("report"));
  ::close(descriptor);
  fs::remove_all(folder);
}
