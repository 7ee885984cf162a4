#pragma once

#include <filesystem>
#include <string>

namespace roofcast {

// The temporaries of roofcast's outputs (OutputFiles in files.hpp: a file's text before it
// replaces its target, a folder staged before it replaces its target folder, gnuplot's
// workspace) are named ".NAME.roofcast-XXXXXXXX" beside their target NAME. A process killed by
// SIGKILL (no handler runs) leaves its temporaries behind; the next roofcast that writes the same
// target removes them. Every temporary in use is held, a shared flock(2) on it, from its creation
// until it is renamed or removed, and the kernel drops that lock when the process ends, however
// it ends: a temporary whose exclusive lock can be taken is stale. Only names of this pattern are
// ever removed.

// A temporary's name for `target`: ".NAME.roofcast-" and 8 random letters or digits, NAME being
// the target's file name cut to 200 bytes (the whole name stays within NAME_MAX).
std::string temporary_name(const std::filesystem::path& target);

// A temporary this process is using, held by a shared lock on an open descriptor of it.
class HeldTemporary {
 public:
  HeldTemporary() = default;
  // Takes `descriptor` (of a file or folder just created) and locks it; -1 holds nothing.
  explicit HeldTemporary(int descriptor);
  ~HeldTemporary();  // closes the descriptor, which ends the lock
  HeldTemporary(HeldTemporary&& other) noexcept;
  HeldTemporary& operator=(HeldTemporary&& other) noexcept;
  HeldTemporary(const HeldTemporary&) = delete;
  HeldTemporary& operator=(const HeldTemporary&) = delete;

  int descriptor() const { return descriptor_; }

 private:
  int descriptor_ = -1;
};

// Held while a temporary is created and locked: a shared lock on its folder, which
// remove_stale_temporaries takes exclusively, so that it never takes a temporary that exists but
// is not locked yet for a stale one. Without read access to the folder it holds nothing.
class TemporaryCreation {
 public:
  explicit TemporaryCreation(const std::filesystem::path& folder);
  ~TemporaryCreation();
  TemporaryCreation(const TemporaryCreation&) = delete;
  TemporaryCreation& operator=(const TemporaryCreation&) = delete;

 private:
  int folder_ = -1;
};

// Removes the stale temporaries of `target` (files, and folders with all they hold) from its
// folder. Those a live process holds, and anything not named as temporary_name() names, stay; in
// a folder that stays busy (a temporary folder a live process holds), nothing is removed.
void remove_stale_temporaries(const std::filesystem::path& target);

}  // namespace roofcast
