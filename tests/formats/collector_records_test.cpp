#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/formats/collector_records.hpp"
#include "roofcast/formats/input_error.hpp"

using namespace roofcast;

namespace {

std::string launch(int index, const char* name, int grid, double duration_ns) {
  nlohmann::json line = {{"type", "launch"}, {"index", index}, {"name", name}, {"demangled", std::string(name) + "(float*)"},
                         {"device", 0}, {"grid", {grid, 1, 1}}, {"block", {256, 1, 1}}, {"dynamic_shared_bytes", 0},
                         {"duration_ns", duration_ns}, {"registers", 32}, {"static_shared_bytes", 2048}};
  return line.dump();
}

std::string file_of(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

const std::string kFile = "records/roofcast-timing-1.jsonl";

// The error reading a file of a process record, `record` and an end record; empty if none.
std::string error_for(const std::string& record) {
  try {
    parse_collector_file(file_of({R"({"type":"process","pid":1})", record, R"({"type":"end"})"}), kFile);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("collector record: one line is one record of its type") {
  const CollectorFile file = parse_collector_file(
      file_of({launch(3, "_Z1kPf", 64, 1500),
               R"({"type":"copy","direction":"h2d","pinned":true,"bytes":4096,"count":2,"duration_ns":800,"device":1})",
               R"({"type":"memset","bytes":64,"duration_ns":10})", R"({"type":"device","index":1,"chip":"GH100"})",
               R"({"type":"config","passes":19})",
               // Progress lines are for the launcher's status line; types this reader does not know are left alone.
               R"({"type":"progress","launches_seen":1000})", R"({"type":"later"})",
               R"({"type":"end","aborted":true})"}),
      kFile);
  REQUIRE(file.launches.size() == 1);
  const LaunchRecord& record = file.launches.front();
  CHECK(record.index == 3);
  CHECK(record.name == "_Z1kPf");
  CHECK(record.demangled == "_Z1kPf(float*)");
  CHECK(record.grid == std::array<unsigned, 3>{64, 1, 1});
  CHECK(record.block == std::array<unsigned, 3>{256, 1, 1});
  CHECK(record.duration_ns == 1500);
  CHECK(record.registers == 32);
  CHECK(record.static_shared_bytes == 2048);

  REQUIRE(file.copies.size() == 2);
  CHECK(file.copies[0].kind == "h2d");
  CHECK(file.copies[0].pinned);
  CHECK(file.copies[0].count == 2);
  CHECK(file.copies[0].device == 1);
  CHECK(file.copies[1].kind == "memset");

  REQUIRE(file.devices.size() == 1);
  CHECK(file.devices[0].index == 1);
  CHECK_FALSE(file.devices[0].name);
  CHECK(file.devices[0].chip == "GH100");
  CHECK(file.passes == 19u);
  CHECK(file.ended);
  CHECK(file.aborted);
  CHECK(file.errors.empty());
  CHECK(file.warnings.empty());

  CHECK_THROWS_WITH(parse_collector_file(file_of({"{\"type\":", R"({"type":"end"})"}), "f"),
                    "f:1: bad collector record: not valid JSON");
  CHECK_THROWS_WITH(parse_collector_file(file_of({R"({"type":"end"})", R"({"index":0})"}), "f"),
                    Catch::StartsWith("f:2: type:"));
}

TEST_CASE("collector file: a process' records taken together, launches by index") {
  const CollectorFile file = parse_collector_file(
      file_of({R"({"type":"process","pid":100,"start_ns":1000,"mode":"timing","env":{"RANK":"3"}})",
               R"({"type":"device","index":0,"name":"NVIDIA H100 80GB HBM3","chip":"GH100"})", launch(1, "b", 8, 20),
               "", launch(0, "a", 4, 10), R"({"type":"warning","message":"CUPTI dropped 2 activity records"})",
               R"({"type":"error","message":"no counters"})", R"({"type":"config","passes":2})",
               R"({"type":"copy","direction":"d2h","bytes":8,"duration_ns":1})", R"({"type":"end","launches":2})"}),
      kFile);
  CHECK(file.pid == 100);
  CHECK(file.start_ns == 1000);
  CHECK(file.env.at("RANK") == "3");
  REQUIRE(file.launches.size() == 2);
  CHECK(file.launches[0].name == "a");
  CHECK(file.launches[1].name == "b");
  REQUIRE(file.devices.size() == 1);
  CHECK(file.devices[0].name == "NVIDIA H100 80GB HBM3");
  CHECK(file.warnings == std::vector<std::string>{"CUPTI dropped 2 activity records"});
  CHECK(file.errors == std::vector<std::string>{"no counters"});
  CHECK(file.passes == 2u);
  REQUIRE(file.copies.size() == 1);
  CHECK(file.copies[0].kind == "d2h");
  CHECK(file.ended);
  CHECK_FALSE(file.aborted);
  CHECK_FALSE(parse_collector_file(file_of({R"({"type":"process","pid":1})"}), kFile).ended);
}

TEST_CASE("collector file: a malformed record in the middle is an error naming file and line") {
  CHECK_THROWS_WITH(parse_collector_file(file_of({R"({"type":"process","pid":1})", "{not json", launch(0, "k", 1, 1)}), kFile),
                    kFile + ":2: bad collector record: not valid JSON");
}

TEST_CASE("collector records are held to the profile's ranges, naming file, line and field") {
  nlohmann::json line = nlohmann::json::parse(launch(0, "k", 1, 1));
  auto with = [&](const char* key, nlohmann::json value) {
    nlohmann::json changed = line;
    changed[key] = std::move(value);
    return changed.dump();
  };
  // A negative grid wrapped to 4294967295 blocks before.
  CHECK(error_for(with("grid", {-1, 1, 1})) ==
        kFile + ":2: grid[0]: expected a whole number from 1 to 2147483647, found -1");
  CHECK(error_for(with("block", {2048, 1, 1})) == kFile + ":2: block[0]: expected a whole number from 1 to 1024, found 2048");
  CHECK(error_for(with("duration_ns", 1e308)) ==
        kFile + ":2: duration_ns: must be 0 or between 1e-12 and 1e+20, found 1e+308");
  CHECK(error_for(with("metrics", {{"smsp__inst_executed.sum", -5}})) ==
        kFile + ":2: metrics.smsp__inst_executed.sum: must be >= 0, found -5");
  CHECK(error_for(with("index", "7")) == kFile + ":2: index: expected a number, found string");
  CHECK(error_for(R"({"type":"launch","index":1e400})") == kFile + ":2: bad collector record: not valid JSON");
}

TEST_CASE("collector file: only a cut last record is forgiven, a whole last record of the wrong shape is an error") {
  CHECK_THROWS_WITH(parse_collector_file(file_of({R"({"type":"process","pid":1})", R"({"type":"launch","index":0})"}), kFile),
                    kFile + ":2: name: missing");
  CHECK(parse_collector_file(file_of({R"({"type":"process","pid":1})", launch(0, "k", 1, 1), R"({"type":"lau)"}), kFile)
            .launches.size() == 1);
  // Cut without its newline, as a killed process leaves it.
  CHECK(parse_collector_file(file_of({R"({"type":"process","pid":1})", launch(0, "k", 1, 1)}) + R"({"type":"lau)", kFile)
            .launches.size() == 1);
}
