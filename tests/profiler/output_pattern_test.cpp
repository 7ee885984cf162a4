#include <catch2/catch.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/profiler/output_pattern.hpp"

using namespace roofcast::profiler;

TEST_CASE("output patterns: %p, %q{VAR} and %% expand per process") {
  CHECK_FALSE(is_per_process("app.json"));
  CHECK_FALSE(is_per_process("100%%.json"));
  CHECK(is_per_process("app.%p.json"));
  CHECK(is_per_process("rank%q{OMPI_COMM_WORLD_RANK}.json"));
  CHECK(pattern_variables("r%q{A}-%q{B}.%p.json") == std::vector<std::string>{"A", "B"});
  const std::map<std::string, std::string> env = {{"OMPI_COMM_WORLD_RANK", "3"}};
  CHECK(expand_output_pattern("app.%p.json", 4242, env) == "app.4242.json");
  CHECK(expand_output_pattern("rank%q{OMPI_COMM_WORLD_RANK}.json", 1, env) == "rank3.json");
  CHECK(expand_output_pattern("r%q{UNSET}.json", 1, env) == "r.json");  // unset: nothing
  CHECK(expand_output_pattern("100%%-%p", 7, {}) == "100%-7");
}

TEST_CASE("malformed output patterns are errors naming the pattern") {
  using roofcast::InputError;
  CHECK_THROWS_AS(is_per_process("app.%x.json"), InputError);
  CHECK_THROWS_AS(is_per_process("app.json%"), InputError);
  CHECK_THROWS_AS(is_per_process("app.%q.json"), InputError);
  CHECK_THROWS_AS(is_per_process("app.%q{RANK.json"), InputError);
  CHECK_THROWS_AS(is_per_process("app.%q{}.json"), InputError);
  CHECK_THROWS_WITH(is_per_process("app.%x.json"), Catch::Contains("app.%x.json") && Catch::Contains("%x"));
}
