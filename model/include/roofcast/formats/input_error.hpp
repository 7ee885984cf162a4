#pragma once

#include <stdexcept>
#include <string>

namespace roofcast {

// Bad input from a user's file or command line. The message is one line that names
// the file and the field or kernel at fault; the CLI prints it and exits non-zero.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A command line that cannot work whatever the files hold (options that contradict each other,
// a required choice left out): the CLI prints the one-line message and exits with status 2, as
// for the usage errors its option parser finds.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace roofcast
