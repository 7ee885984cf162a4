#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <signal.h>
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
