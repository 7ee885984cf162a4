#include "run_command.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace roofcast::testing {

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::path temporary_folder() {
  static std::atomic<int> counter = 0;  // tests run commands from several threads at once
  auto folder = std::filesystem::temp_directory_path() /
                ("roofcast-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(folder);
  return folder;
}

CommandResult run_roofcast(const std::vector<std::string>& arguments) { return run_roofcast_within(0, arguments); }

CommandResult run_roofcast_within(unsigned seconds, const std::vector<std::string>& arguments) {
  const auto folder = temporary_folder();
  const auto out_path = folder / "stdout", err_path = folder / "stderr";
  const std::string binary = std::string(ROOFCAST_BINARY_DIR) + "/roofcast";
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::alarm(seconds);  // kept across execv; 0: no limit
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = file_text(out_path);
  result.err = file_text(err_path);
  std::filesystem::remove_all(folder);
  return result;
}

std::string temporary_file(const std::string& name, const std::string& text) {
  const auto path = temporary_folder() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace roofcast::testing
