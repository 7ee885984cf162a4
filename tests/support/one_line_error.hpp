#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace roofcast::testing {

// Runs `roofcast arguments...` and checks it failed as bad input must: exit status 1, nothing
// on stdout, and one line on stderr that names `expected_part`.
inline void check_one_line_error(const std::vector<std::string>& arguments, const std::string& expected_part) {
  const auto result = run_roofcast(arguments);
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK_THAT(result.err, Catch::StartsWith("roofcast: ") && Catch::Contains(expected_part));
}

}  // namespace roofcast::testing
