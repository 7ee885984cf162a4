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

}  // namespace roofcast
