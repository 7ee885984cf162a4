#include "roofcast/formats/temporary_paths.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <string>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"

namespace roofcast {

namespace {

struct RegisteredPath {
  std::string path;
  RemovedOnSignal::Kind kind;
};

// A report stages a few files per chart; 4096 live temporaries is far beyond any command.
constexpr size_t kSlots = 4096;
std::array<std::atomic<const RegisteredPath*>, kSlots> registered{};

constexpr std::array kCleanupSignals{SIGINT, SIGTERM, SIGHUP};

void remove_registered(RemovedOnSignal::Kind kind) {
  for (auto& slot : registered) {
    const RegisteredPath* entry = slot.load();
    if (entry == nullptr || entry->kind != kind) continue;
    if (kind == RemovedOnSignal::Kind::file)
      ::unlink(entry->path.c_str());
    else
      ::rmdir(entry->path.c_str());
  }
}

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  remove_registered(RemovedOnSignal::Kind::file);
  remove_registered(RemovedOnSignal::Kind::folder);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigemptyset(&default_action.sa_mask);
  ::sigaction(signal_number, &default_action, nullptr);
  // Blocked while this handler runs: delivered, with the default action, when it returns.
  ::raise(signal_number);
}

// Checked at every registration, not once: a library (or a test framework) may have set its own
// handler since.
void install_handlers() {
  for (const int signal_number : kCleanupSignals) {
    struct sigaction current {};
    ::sigaction(signal_number, nullptr, &current);
    if (current.sa_handler == SIG_IGN || current.sa_handler == remove_temporaries_and_reraise) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    ::sigemptyset(&action.sa_mask);
    for (const int other : kCleanupSignals) ::sigaddset(&action.sa_mask, other);
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

RemovedOnSignal::RemovedOnSignal(const std::filesystem::path& path, Kind kind) {
  install_handlers();
  const auto* entry = new RegisteredPath{path.string(), kind};
  for (size_t i = 0; i < kSlots; ++i) {
    const RegisteredPath* empty = nullptr;
    if (registered[i].compare_exchange_strong(empty, entry)) {
      slot_ = static_cast<int>(i);
      return;
    }
  }
  delete entry;
  throw InputError(fmt::format("{}: too many temporary files at once (more than {})", path.string(), kSlots));
}

RemovedOnSignal::~RemovedOnSignal() { delete registered[static_cast<size_t>(slot_)].exchange(nullptr); }

}  // namespace roofcast
