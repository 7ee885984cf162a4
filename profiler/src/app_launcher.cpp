#include "roofcast/profiler/app_launcher.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"

namespace roofcast::profiler {

AppExit run_application(const std::vector<std::string>& command, const std::map<std::string, std::string>& environment) {
  if (command.empty()) throw InputError("profile: no application given (usage: roofcast profile [options] -- APP ARGS...)");
  std::vector<char*> argv;
  for (const auto& argument : command) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);

  // A pipe closed on exec tells us whether exec worked, so a typo gives one clear line.
  int exec_status[2];
  if (pipe2(exec_status, O_CLOEXEC) != 0) throw InputError(fmt::format("profile: pipe: {}", std::strerror(errno)));

  struct sigaction ignore {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    close(exec_status[0]);
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    execvp(argv[0], argv.data());
    const int error = errno;
    (void)!write(exec_status[1], &error, sizeof error);
    _exit(127);
  }
  close(exec_status[1]);
  if (child < 0) {
    close(exec_status[0]);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    throw InputError(fmt::format("profile: fork: {}", std::strerror(errno)));
  }
  int exec_error = 0;
  const bool exec_failed = read(exec_status[0], &exec_error, sizeof exec_error) == sizeof exec_error;
  close(exec_status[0]);

  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  if (exec_failed)
    throw InputError(fmt::format("profile: cannot run {}: {}", command[0], std::strerror(exec_error)));

  AppExit result;
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.signal = WTERMSIG(status);
    result.exit_code = 128 + result.signal;
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

std::string how_it_ended(const AppExit& exit) {
  if (exit.signaled) return fmt::format("was ended by signal {} ({})", exit.signal, strsignal(exit.signal));
  return fmt::format("exited with status {}", exit.exit_code);
}

std::string executable_folder() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return ".";
  return self.parent_path().string();
}

}  // namespace roofcast::profiler
