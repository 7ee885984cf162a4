#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/kernel_parameters.hpp"
#include "roofcast/profiler/importers.hpp"

using roofcast::InputError;
using roofcast::KernelCounters;
using roofcast::profiler::import_ncu_csv;
using roofcast::profiler::import_nvprof_csv;
using roofcast::profiler::split_csv_line;

namespace {
const std::string kSamples = ROOFCAST_PROFILER_SAMPLES_DIR;

roofcast::KernelProfile reparse(const nlohmann::json& profile) {
  return roofcast::parse_kernel_profile(profile.dump(), "imported");
}
}  // namespace

TEST_CASE("CSV fields honour quotes, embedded commas and doubled quotes") {
  CHECK(split_csv_line(R"("a, b",c,"say ""hi""",)") == std::vector<std::string>{"a, b", "c", "say \"hi\"", ""});
  CHECK(split_csv_line("1,2\r") == std::vector<std::string>{"1", "2"});
}

TEST_CASE("nvprof CSV: the thesis' red/black SOR counters come back as totals over 4 invocations") {
  const std::string path = kSamples + "/nvprof-redblack.csv";
  const auto profile = reparse(import_nvprof_csv(roofcast::read_text_file(path), path, ""));
  CHECK(profile.reference_device == "GeForce GTX 480");
  REQUIRE(profile.kernels.size() == 2);
  const auto& sor = profile.kernels[0];
  CHECK(sor.name == "sor_red(double*, double const *, int, double)");
  CHECK(sor.invocations == 4);
  const auto& c = std::get<KernelCounters>(sor.description);
  // thesis Table 4.4 x 4 (shared/reference/thesis-redblack.csv)
  CHECK(c.thesis.flop_count_dp_fma == 4.0 * 33554432);
  CHECK(c.thesis.inst_compute_ld_st == 4.0 * 303079424);
  CHECK(c.thesis.inst_executed == 4.0 * 56100732);
  CHECK(c.thesis.inst_fp_64 == 4.0 * 218107904);
  CHECK(c.thesis.inst_integer == 4.0 * 736891392);
  CHECK(c.thesis.dram_read_transactions == 4.0 * 17660604);
  CHECK(c.thesis.dram_write_transactions == 4.0 * 8392704);
  // Ratios stay averages; occupancy moves to its CUDA 13 name, in percent; rates with units are left out.
  CHECK(c.extra.at("sm__warps_active.avg.pct_of_peak_sustained_active") == Approx(81.3652));
  CHECK_FALSE(c.extra.contains("dram_read_throughput"));
  CHECK_FALSE(c.extra.contains("gld_efficiency"));
  // The kernel parameters are the thesis' (Table 4.5: fp64, E_mix = (M_fp64 + M_fma64) / (2 M_fp64)).
  const auto p = roofcast::kernel_parameters_of(sor);
  CHECK(p.E_mix == Approx((218107904.0 + 33554432.0) / (2 * 218107904.0)));
  const auto& boundary = std::get<KernelCounters>(profile.kernels[1].description);
  CHECK(boundary.thesis.dram_read_transactions == 2 * 1040.0);
}

TEST_CASE("nvprof CSV: bad input is named by file and line") {
  CHECK_THROWS_WITH(import_nvprof_csv("hello\n", "x.csv", ""), Catch::Contains("x.csv") && Catch::Contains("nvprof"));
  const std::string header = "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n";
  CHECK_THROWS_WITH(import_nvprof_csv(header + "\"D (0)\",\"k\",x,\"inst_executed\",\"\",1,1,1\n", "x.csv", ""),
                    Catch::Contains("x.csv:2") && Catch::Contains("Invocations"));
  CHECK_THROWS_WITH(import_nvprof_csv(header + "\"D (0)\",\"k\",1,\"inst_executed\"\n", "x.csv", ""),
                    Catch::Contains("x.csv:2") && Catch::Contains("fields"));
  // A profile missing thesis counters is rejected when read back, naming the counter.
  const auto partial = import_nvprof_csv(header + "\"D (0)\",\"k\",1,\"inst_executed\",\"\",1,1,1\n", "x.csv", "");
  CHECK_THROWS_WITH(reparse(partial), Catch::Contains("flop_count_sp_fma"));
}

TEST_CASE("ncu raw CSV: launches are summed per kernel, units converted, durations totalled") {
  const std::string csv =
      "==PROF== Connected to process 1\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"dram__sectors_read.sum\",\"dram__sectors_write.sum\",\"gpu__time_duration.sum\","
      "\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"smsp__inst_executed.sum\","
      "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\","
      "\"smsp__sass_thread_inst_executed_op_fp32_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_fp64_pred_on.sum\","
      "\"smsp__sass_thread_inst_executed_op_integer_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_memory_pred_on.sum\","
      "\"lts__t_bytes.sum\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"sector\",\"sector\",\"usecond\",\"%\",\"inst\",\"inst\","
      "\"inst\",\"inst\",\"inst\",\"inst\",\"inst\",\"Kbyte\"\n"
      "\"0\",\"1\",\"app\",\"h\",\"_Z4axpyPfS_f\",\"1\",\"7\",\"(256, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\",\"1,000\",\"500\","
      "\"12.5\",\"50\",\"2000\",\"0\",\"16384\",\"16384\",\"0\",\"100\",\"32768\",\"2\"\n"
      "\"1\",\"1\",\"app\",\"h\",\"_Z4axpyPfS_f\",\"1\",\"7\",\"(256, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\",\"1000\",\"700\","
      "\"7.5\",\"70\",\"2000\",\"0\",\"16384\",\"16384\",\"0\",\"100\",\"32768\",\"3\"\n";
  const auto json = import_ncu_csv(csv, "run.csv", "NVIDIA H100 80GB HBM3");
  const auto profile = reparse(json);
  CHECK(profile.reference_device == "NVIDIA H100 80GB HBM3");
  REQUIRE(profile.kernels.size() == 1);
  const auto& k = profile.kernels[0];
  CHECK(k.name == "axpy(float*, float*, float)");  // demangled, as the collector names kernels
  CHECK(k.mangled_name == "_Z4axpyPfS_f");
  CHECK(k.invocations == 2);
  CHECK(*k.measured_ms == Approx(0.020));
  const auto& c = std::get<KernelCounters>(k.description);
  CHECK(c.thesis.dram_read_transactions == 2000);
  CHECK(c.thesis.dram_write_transactions == 1200);
  CHECK(c.thesis.inst_executed == 4000);
  CHECK(c.thesis.flop_count_sp_fma == 32768);
  CHECK(c.extra.at("sm__warps_active.avg.pct_of_peak_sustained_active") == 60);  // mean, not sum
  CHECK(c.extra.at("lts__t_bytes.sum") == 5000);                               // Kbyte -> byte
  CHECK_FALSE(c.extra.contains("gpu__time_duration.sum"));
  CHECK_THROWS_WITH(import_ncu_csv("a,b\n1,2\n", "bad.csv", ""), Catch::Contains("bad.csv") && Catch::Contains("ncu"));
}

TEST_CASE("ncu raw CSV from a real run (profiler test app on an H200) imports with exact counts") {
  // profiler/samples/ncu-testapp-h200.csv: ncu --metrics <roofcast's full set> on
  // roofcast-profiler-test-app, then ncu -i --csv --page raw --print-units base --print-kernel-base mangled.
  const std::string path = kSamples + "/ncu-testapp-h200.csv";
  const auto profile = reparse(import_ncu_csv(roofcast::read_text_file(path), path, ""));
  CHECK(profile.reference_device == "NVIDIA H200");  // from device__attribute_display_name
  REQUIRE(profile.kernels.size() == 6);
  std::map<std::string, const roofcast::KernelRecord*> by_name;
  for (const auto& kernel : profile.kernels) by_name[kernel.mangled_name] = &kernel;
  const auto& triad = *by_name.at("_Z19stream_triad_kernelPfPKfS1_fm");
  CHECK(triad.invocations == 4);
  const auto& counters = std::get<KernelCounters>(triad.description);
  // 4 launches over 2^27 floats: two 32-bit loads and one store per element, 32 per warp instruction.
  CHECK(counters.extra.at("smsp__inst_executed_op_global_ld.sum") == 4.0 * 2 * (1 << 27) / 32);
  CHECK(counters.extra.at("smsp__inst_executed_op_global_st.sum") == 4.0 * (1 << 27) / 32);
  CHECK(counters.thesis.flop_count_sp_fma == 4.0 * (1 << 27));
  CHECK_FALSE(counters.extra.contains("device__attribute_max_threads_per_block"));
  CHECK(by_name.at("_Z15fp32_fma_kernelPfPKfi")->invocations == 3);
  // --print-units base writes durations in "ns": every kernel keeps its measured time.
  REQUIRE(triad.measured_ms);
  CHECK(*triad.measured_ms == Approx(1.793536));
  for (const auto& kernel : profile.kernels) CHECK(kernel.measured_ms);
}

namespace {

// A two-launch ncu raw CSV of one kernel with the given units row and metric cells (duration,
// lts__t_bytes.sum, then the thesis counters, which stay fixed).
std::string ncu_csv(const std::string& duration_unit, const std::string& bytes_unit,
                    const std::string& launch1, const std::string& launch2, const std::string& name = "k") {
  const std::string header =
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"lts__t_bytes.sum\",\"dram__sectors_read.sum\","
      "\"dram__sectors_write.sum\",\"smsp__inst_executed.sum\",\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\","
      "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_fp32_pred_on.sum\","
      "\"smsp__sass_thread_inst_executed_op_fp64_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_integer_pred_on.sum\","
      "\"smsp__sass_thread_inst_executed_op_memory_pred_on.sum\"\n";
  const std::string units = "\"\",\"\",\"" + duration_unit + "\",\"" + bytes_unit +
                            "\",\"sector\",\"sector\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\"\n";
  const std::string thesis = ",\"10\",\"5\",\"100\",\"0\",\"64\",\"64\",\"0\",\"20\",\"30\"\n";
  return header + units + "\"0\",\"" + name + "\"," + launch1 + thesis + "\"1\",\"" + name + "\"," + launch2 + thesis;
}

}  // namespace

TEST_CASE("ncu CSV: every time and byte unit ncu writes is converted") {
  struct Case {
    const char* duration_unit;
    const char* bytes_unit;
    double ms;     // of two launches of 1.5 units each
    double bytes;  // of two launches of 2 units each
  };
  for (const Case& c : {Case{"ns", "byte", 3e-6, 4}, Case{"nsecond", "Kbyte", 3e-6, 4e3}, Case{"us", "Mbyte", 3e-3, 4e6},
                        Case{"usecond", "Gbyte", 3e-3, 4e9}, Case{"ms", "byte", 3, 4}, Case{"msecond", "Tbyte", 3, 4e12},
                        Case{"s", "byte", 3e3, 4}, Case{"second", "byte", 3e3, 4}}) {
    INFO(c.duration_unit << " " << c.bytes_unit);
    const auto profile = reparse(import_ncu_csv(ncu_csv(c.duration_unit, c.bytes_unit, "\"1.5\",\"2\"", "\"1.5\",\"2\""),
                                                "units.csv", "D"));
    REQUIRE(profile.kernels[0].measured_ms);
    CHECK(*profile.kernels[0].measured_ms == Approx(c.ms));
    CHECK(std::get<KernelCounters>(profile.kernels[0].description).extra.at("lts__t_bytes.sum") == Approx(c.bytes));
  }
}

TEST_CASE("ncu CSV: a byte-order mark is skipped") {
  const std::string csv = ncu_csv("ns", "byte", "\"1000\",\"2\"", "\"1000\",\"2\"");
  const auto profile = reparse(import_ncu_csv("\xEF\xBB\xBF" + csv, "bom.csv", "D"));
  CHECK(profile.kernels.size() == 1);
}

TEST_CASE("ncu CSV: an unreadable counter cell is an error naming file, line, kernel and metric") {
  CHECK_THROWS_WITH(import_ncu_csv(ncu_csv("ns", "byte", "\"1000\",\"2\"", "\"1000\",\"two\""), "cells.csv", "D"),
                    "cells.csv:4: kernel \"k\": lts__t_bytes.sum: not a number: \"two\" (expected a number, or n/a)");
  CHECK_THROWS_WITH(import_ncu_csv(ncu_csv("ns", "byte", "\"1000\",\"1e400\"", "\"1000\",\"2\""), "cells.csv", "D"),
                    Catch::StartsWith("cells.csv:3: kernel \"k\": lts__t_bytes.sum: not a number: \"1e400\""));
  CHECK_THROWS_WITH(import_ncu_csv(ncu_csv("ns", "byte", "\"1000\",\"-2\"", "\"1000\",\"2\""), "cells.csv", "D"),
                    "cells.csv:3: kernel \"k\": lts__t_bytes.sum: must be >= 0, found -2");
  CHECK_THROWS_WITH(import_ncu_csv(ncu_csv("ns", "Tbyte", "\"1000\",\"1e9\"", "\"1000\",\"2\""), "cells.csv", "D"),
                    Catch::StartsWith("cells.csv:3: kernel \"k\": lts__t_bytes.sum: 1e+21 is beyond the largest value"));
}

TEST_CASE("ncu CSV: a metric ncu writes as n/a for a launch is left out of that kernel, not half summed") {
  const auto profile =
      reparse(import_ncu_csv(ncu_csv("ns", "byte", "\"1000\",\"n/a\"", "\"1000\",\"2\""), "na.csv", "D"));
  const auto& counters = std::get<KernelCounters>(profile.kernels[0].description);
  CHECK_FALSE(counters.extra.contains("lts__t_bytes.sum"));
  CHECK(*profile.kernels[0].measured_ms == Approx(2e-3));
  // A thesis counter that is n/a leaves the profile unreadable, naming the counter.
  std::string csv = ncu_csv("ns", "byte", "\"1000\",\"2\"", "\"1000\",\"2\"");
  csv.replace(csv.rfind("\"100\""), 5, "\"n/a\"");
  CHECK_THROWS_WITH(reparse(import_ncu_csv(csv, "na.csv", "D")), Catch::Contains("inst_executed: missing"));
}

TEST_CASE("CSV text that is not UTF-8 is an error naming file and line") {
  CHECK_THROWS_WITH(import_ncu_csv(ncu_csv("ns", "byte", "\"1\",\"2\"", "\"1\",\"2\"", "k\xFF"), "utf.csv", "D"),
                    "utf.csv:3: not valid UTF-8 text: \"\"0\",\"k\\xff\",\"1\",\"2\",\"10\",\"5\",\"100\",\"0\",\"64\",\"64\",\"0\",\"20\",\"30\"\"");
  const std::string header = "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n";
  CHECK_THROWS_WITH(import_nvprof_csv(header + "\"D (0)\",\"k\xC3\",1,\"inst_executed\",\"\",1,1,1\n", "utf.csv", ""),
                    Catch::StartsWith("utf.csv:2: not valid UTF-8 text"));
}

TEST_CASE("nvprof CSV: a byte-order mark, counts beyond 2^31, unreadable counts") {
  const std::string header = "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n";
  const auto big = import_nvprof_csv("\xEF\xBB\xBF" + header + "\"D (0)\",\"k\",3000000000,\"inst_executed\",\"\",1,1,2\n",
                                     "x.csv", "");
  CHECK(big["kernels"][0]["invocations"] == 3000000000LL);
  CHECK(big["kernels"][0]["counters"]["inst_executed"] == 6e9);
  CHECK_THROWS_WITH(import_nvprof_csv(header + "\"D (0)\",\"k\",1e13,\"inst_executed\",\"\",1,1,1\n", "x.csv", ""),
                    Catch::StartsWith("x.csv:2: Invocations: expected a whole number from 1 to 1e+12"));
  CHECK_THROWS_WITH(import_nvprof_csv(header + "\"D (0)\",\"k\",1,\"inst_executed\",\"\",1,1,\"lots\"\n", "x.csv", ""),
                    "x.csv:2: kernel \"k\": inst_executed: Avg: not a number: \"lots\"");
  // A rate with its unit is not imported, as before.
  const auto rate = import_nvprof_csv(header + "\"D (0)\",\"k\",1,\"dram_read_throughput\",\"\",1,1,\"12.3GB/s\"\n",
                                      "x.csv", "");
  CHECK_FALSE(rate["kernels"][0]["counters"].contains("dram_read_throughput"));
}

TEST_CASE("ncu CSV: only the row right after the header is the units row") {
  // A row with an empty ID between two launches was once taken as new units: the launch after
  // it was scaled by them, and the row's own launch was lost.
  std::string csv = ncu_csv("ns", "byte", "\"1000\",\"2\"", "\"1000\",\"2\"");
  const std::string units_row = csv.substr(csv.find('\n') + 1, csv.find('\n', csv.find('\n') + 1) - csv.find('\n'));
  std::string late_units = csv;
  late_units.insert(late_units.find("\"1\",\"k\""), units_row);
  CHECK_THROWS_WITH(import_ncu_csv(late_units, "late.csv", "D"),
                    "late.csv:4: a row with an empty ID cell: only the row right after the header can be the units "
                    "row");
  // No units row at all: the units of every value are unknown.
  std::string no_units = csv;
  no_units.erase(no_units.find(units_row), units_row.size());
  CHECK_THROWS_WITH(import_ncu_csv(no_units, "bare.csv", "D"), Catch::StartsWith("bare.csv:2: no units row"));
}

TEST_CASE("ncu CSV: a duration whose unit is not a time unit is an error naming the unit and column") {
  for (const char* unit : {"NS", "", "cycle", "Msecond2"}) {
    INFO(unit);
    CHECK_THROWS_WITH(import_ncu_csv(ncu_csv(unit, "byte", "\"1000\",\"2\"", "\"1000\",\"2\""), "units.csv", "D"),
                      "units.csv:2: gpu__time_duration.sum: unit \"" + std::string(unit) +
                          "\" is not a time unit (expected ns, us, ms, s, nsecond, usecond, msecond or second)");
  }
}

TEST_CASE("ncu CSV: a launch whose duration is n/a leaves the kernel without a measured time, with a note") {
  const auto json = import_ncu_csv(ncu_csv("ns", "byte", "\"n/a\",\"2\"", "\"1000\",\"2\""), "na.csv", "D");
  REQUIRE(json.contains("notes"));
  REQUIRE(json["notes"].size() == 1);
  CHECK(json["notes"][0] == "kernel \"k\": gpu__time_duration.sum is n/a for 1 of its 2 launches: no measured time");
  CHECK_FALSE(reparse(json).kernels[0].measured_ms);
  // Every launch timed: no note.
  CHECK_FALSE(import_ncu_csv(ncu_csv("ns", "byte", "\"1\",\"2\"", "\"1\",\"2\""), "ok.csv", "D").contains("notes"));
}

TEST_CASE("ncu CSV: numbers only in the forms ncu writes") {
  using roofcast::profiler::parse_csv_number;
  for (const auto& [text, value] : std::vector<std::pair<std::string, double>>{
           {"0", 0},         {"42", 42},           {"1,234", 1234},     {"12,345,678", 12345678},
           {"331,878.50", 331878.5}, {"9.0", 9},   {"-2", -2},          {"+5", 5},
           {"1.5e+03", 1500}, {"2E-3", 0.002},     {"1e9", 1e9},        {"007", 7}}) {
    INFO(text);
    REQUIRE(parse_csv_number(text));
    CHECK(*parse_csv_number(text) == Approx(value));
  }
  for (const char* text : {"0x10", "1,2,3", "12,34", "1234,567", "1,2345", ",123", "1,", "0,123", "1 234", " 1",
                           "1 ", ".5", "5.", "1.2.3", "1.234,5", "1e", "1e+", "inf", "nan", "--1", "1e400", "",
                           "n/a", "12.3GB/s", "1_000"}) {
    INFO(text);
    CHECK_FALSE(parse_csv_number(text));
  }
  // Through the importer: an error naming the file, line, kernel, metric and cell.
  CHECK_THROWS_WITH(import_ncu_csv(ncu_csv("ns", "byte", "\"1000\",\"0x10\"", "\"1000\",\"2\""), "hex.csv", "D"),
                    "hex.csv:3: kernel \"k\": lts__t_bytes.sum: not a number: \"0x10\" (expected a number, or n/a)");
  CHECK_THROWS_WITH(import_ncu_csv(ncu_csv("ns", "byte", "\"1000\",\"1,2,3\"", "\"1000\",\"2\""), "sep.csv", "D"),
                    Catch::StartsWith("sep.csv:3: kernel \"k\": lts__t_bytes.sum: not a number: \"1,2,3\""));
}

TEST_CASE("ncu CSV: a metric column that appears twice is refused, naming it") {
  std::string csv = ncu_csv("ns", "byte", "\"1000\",\"2\"", "\"1000\",\"2\"");
  // The header's second column after the duration becomes a second lts__t_bytes.sum.
  csv.replace(csv.find("dram__sectors_read.sum"), std::string("dram__sectors_read.sum").size(), "lts__t_bytes.sum");
  CHECK_THROWS_WITH(import_ncu_csv(csv, "twice.csv", "D"),
                    "twice.csv:1: column \"lts__t_bytes.sum\" appears twice (columns 4 and 5): which one to read is "
                    "ambiguous");
}
