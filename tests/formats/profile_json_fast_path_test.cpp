// The profile reader's fast path (profile_json_fast_path.hpp) against the checked reader: for
// every input, the same profile or the same error message.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tbb/task_arena.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/kernel_json_sax.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/formats/profile_json_fast_path.hpp"

using nlohmann::json;
using namespace roofcast;

namespace {

json counters_kernel(const std::string& name) {
  json kernel = json::parse(R"({
    "invocations": 4, "measured_ms": 21.456, "median_ms": 5.1, "note": {"a": [1, {"b": "]}"}]},
    "measured_ms_by_device": {"H200": 18.5, "GTX \"660\"": 40},
    "launch_shapes": [{"grid": [120, 2, 1], "block": [256, 1, 1], "invocations": 3, "registers": 32,
                       "static_shared_bytes": 1024, "dynamic_shared_bytes": 0, "cluster": [1, 1, 1]},
                      {"grid": [1, 1, 1], "block": [32, 4, 2]}],
    "counters": {
      "flop_count_sp_fma": 0, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum": 134217728,
      "inst_compute_ld_st": 1212317696, "inst_executed": 224402928, "inst_fp_32": 0,
      "inst_fp_64": 872431616, "inst_integer": 2947565568, "dram_read_transactions": 70642416,
      "dram__sectors_write.sum": 33570816, "l1tex__t_bytes.sum": 1.5e9, "units": "sectors",
      "breakdown": {"x": 1} } })");
  kernel["name"] = name;
  return kernel;
}

json parameters_kernel(const std::string& name) {
  return json{{"name", name},
              {"parameters",
               {{"K_type", "fp32"}, {"W_comp", 1e9}, {"W_traf", 4e8}, {"E_mix", 0.75}, {"D_ops", 0.5},
                {"D_ldst", 0.25}, {"source", "thesis"}}}};
}

json sample_profile() {
  json kernels = json::array();
  kernels.push_back(counters_kernel("sor_red<[\"{,}\"]>(float*)"));
  kernels.push_back(parameters_kernel("published \\ kernel"));
  kernels.push_back(counters_kernel("k\u00e9rnel,3"));
  return {{"format", "roofcast-profile"}, {"version", 1}, {"reference_device", "H100"},
          {"transfers", json::array({{{"kind", "h2d"}, {"count", 2}, {"bytes", 4096}}})}, {"kernels", kernels}};
}

// What a reader makes of `text`: the profile written back, or the error's message.
template <typename Read>
std::string outcome(Read read, const std::string& text) {
  try {
    return to_json(read(text, "p.json")).dump();
  } catch (const InputError& error) {
    return std::string("error: ") + error.what();
  }
}

void require_same(const std::string& text) {
  INFO(text);
  REQUIRE(outcome(parse_kernel_profile, text) == outcome(parse_kernel_profile_checked, text));
}

const std::vector<json>& replacements() {
  static const std::vector<json> values = {
      json(-1),       json(0),          json(-0.0),       json(1e-13),     json(1e-12), json(0.5),
      json(1.5),      json(3),          json(1024),       json(1025),      json(2e12),  json(1e21),
      json(65536),    json(2147483648), json(1ull << 63), json(-(1ll << 62)), json(""),  json("fp64"),
      json("int"),    json(nullptr),    json(true),       json::array(),   json::array({1, 1, 1}),
      json::array({1, 1}), json::object(), json::object({{"flop_count_sp_fma", 1}})};
  return values;
}

// Every value of `node` (reached by `pointer`) replaced by each of replacements(), and every
// member removed, in turn.
void mutate_everywhere(const json& profile, const json::json_pointer& pointer) {
  const json& node = profile[pointer];
  for (const auto& value : replacements()) {
    json changed = profile;
    changed[pointer] = value;
    require_same(changed.dump());
  }
  if (node.is_object()) {
    for (const auto& item : node.items()) {
      json removed = profile;
      removed[pointer].erase(item.key());
      require_same(removed.dump());
      mutate_everywhere(profile, pointer / item.key());
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) mutate_everywhere(profile, pointer / i);
  }
}

}  // namespace

TEST_CASE("a well-formed profile is read by the fast path, as the checked reader reads it") {
  const std::string text = sample_profile().dump(2);
  const auto array = split_kernel_array(text);
  REQUIRE(array);
  REQUIRE(array->elements.size() == 3);
  CHECK(text.substr(array->begin, 1) == "[");
  CHECK(text.substr(array->end - 1, 1) == "]");
  const auto kernels = read_well_formed_kernels(*array);
  REQUIRE(kernels);
  CHECK((*kernels)[0].name == "sor_red<[\"{,}\"]>(float*)");
  CHECK((*kernels)[0].launch_shapes.size() == 2);
  require_same(text);
}

TEST_CASE("quotes, brackets and backslashes at every offset of the scan's 16-byte blocks") {
  for (size_t pad = 0; pad < 40; ++pad) {
    json profile = sample_profile();
    profile["kernels"][0]["name"] = std::string(pad, 'x') + "<[\"{]}\\>" + std::string(pad, 'y');
    profile["kernels"][1]["note"] = json::array({std::string(pad, 'z'), json::object({{"a]", "}["}})});
    const std::string text = profile.dump();
    INFO(text);
    const auto array = split_kernel_array(text);
    REQUIRE(array);
    CHECK(array->elements.size() == 3);
    require_same(text);
  }
}

TEST_CASE("many kernels read on several threads keep the file's order") {
  json profile = sample_profile();
  profile["kernels"] = json::array();
  for (int i = 0; i < 9000; ++i)
    profile["kernels"].push_back(i % 7 ? counters_kernel("k" + std::to_string(i)) : parameters_kernel("p" + std::to_string(i)));
  const std::string text = profile.dump();
  const auto array = split_kernel_array(text);
  REQUIRE(array);
  const auto kernels = read_well_formed_kernels(*array);
  REQUIRE(kernels);
  CHECK(kernels->at(8999).name == "k8999");
  require_same(text);
  // One bad kernel near the end, and a name listed twice: the checked reader's message.
  json bad = profile;
  bad["kernels"][8000]["counters"]["inst_executed"] = -1;
  require_same(bad.dump());
  CHECK_FALSE(read_well_formed_kernels(*split_kernel_array(bad.dump())));
  json twice = profile;
  twice["kernels"][8500]["name"] = "k3";
  require_same(twice.dump());
}

TEST_CASE("every value of a kernel changed or removed: the fast path agrees with the checked reader") {
  const json profile = sample_profile();
  mutate_everywhere(profile, json::json_pointer("/kernels"));
  for (const char* key : {"format", "version", "reference_device", "transfers"}) {
    json changed = profile;
    changed.erase(key);
    require_same(changed.dump());
  }
}

TEST_CASE("texts the fast path does not take are read by the checked reader") {
  const std::string kernel = counters_kernel("k").dump();
  const std::string header = R"("format": "roofcast-profile", "version": 1)";
  for (const std::string& text : {
           "{" + header + R"(, "kernels": [)" + kernel + "]}",
           "\xEF\xBB\xBF{" + header + R"(, "kernels": [)" + kernel + "]}",
           "{" + header + R"(, "kernels": [)" + kernel + "," + kernel + "]}",
           "{" + header + R"(, "kernels": [)" + kernel + ",]}",
           "{" + header + R"(, "kernels": [,)" + kernel + "]}",
           "{" + header + R"(, "kernels": [)" + kernel + " " + kernel + "]}",
           "{" + header + R"(, "kernels": [])" + "}",
           "{" + header + R"(, "kernels": [)" + kernel + "]",
           "{" + header + R"(, "kernels": [)" + kernel + "]} x",
           "{" + header + R"(, "kernels": [)" + kernel + "], \"kernels\": [1]}",
           "{" + header + R"(, "kernels": [1], "kernels": [)" + kernel + "]}",
           "{" + header + R"(, "kern\u0065ls": [)" + kernel + "]}",
           "{" + header + R"(, "kernels": [)" + kernel + "], \"kern\\u0065ls\": [2]}",
           "{" + header + R"(, "kernels": {"a": )" + kernel + "}}",
           "{" + header + R"(, "kernels": [)" + kernel + "], \"transfers\": [{\"kind\": \"h2d\"}]}",
           "{" + header + R"(, "kernels": [)" + kernel + "], \"x\": 1e400}",
           "{\"version\": 2, \"format\": \"roofcast-profile\", \"kernels\": [" + kernel + "]}",
           "{" + header + R"(, "kernels": [{"name": "a", "name": "b", "parameters": {"K_type": "fp32", "W_comp": 1,
               "W_traf": 1, "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25}}]})",
           "{" + header + R"(, "kernels": [{"name": "a", "parameters": {"K_type": "fp32", "W_comp": 1,
               "W_traf": 1, "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25, "D_ldst": 0.1}}]})",
           "{" + header + R"(, "kernels": [{"name": "a", "parameters": {"K_type": "fp32", "W_comp": 1, "W_traf": 1,
               "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25}}, 7]})",
           "{" + header + R"(, "kernels": [{"name": "a\u0000\"]", "parameters": {"K_type": "fp32", "W_comp": 1,
               "W_traf": 1, "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25}}]})",
           "{" + header + R"(, "kernels": [{"name": "a", "parameters": {"K_type": "fp32", "W_comp": 1e400,
               "W_traf": 1, "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25}}]})",
           "{" + header + R"(, "kernels": [{"name": "a", "parameters": {"K_type": "fp32", "W_comp": 1, /* c */
               "W_traf": 1, "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25}}]})",
       }) {
    require_same(text);
  }
  // Two spellings of one counter that agree are accepted by the checked reader alone.
  json agree = counters_kernel("k");
  agree["counters"]["dram_write_transactions"] = 33570816;
  CHECK_FALSE(read_well_formed_kernel(agree.dump()));
  require_same("{" + header + ", \"kernels\": [" + agree.dump() + "]}");
  agree["counters"]["dram_write_transactions"] = 1;
  require_same("{" + header + ", \"kernels\": [" + agree.dump() + "]}");
}

TEST_CASE("numbers and strings where two JSON parsers could differ: the fast path agrees with the checked reader") {
  const std::string header = R"("format": "roofcast-profile", "version": 1, "kernels": [)";
  auto with_name = [&](const std::string& name_json) {
    return "{" + header + R"({"name": )" + name_json + R"(, "parameters": {"K_type": "fp32", "W_comp": 1,
        "W_traf": 1, "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25}}]})";
  };
  auto with_w_comp = [&](const std::string& number) {
    return "{" + header + R"({"name": "k", "parameters": {"K_type": "fp32", "W_comp": )" + number + R"(,
        "W_traf": 1, "E_mix": 0.5, "D_ops": 0.5, "D_ldst": 0.25}}]})";
  };
  // Escaped surrogates: a pair, a lone high one, a lone low one, a reversed pair; raw bytes that
  // are not UTF-8 (an encoded surrogate, an overlong slash, a stray continuation byte).
  for (const std::string name : {R"("\ud83d\ude00")", R"("\ud83d")", R"("\ude00")", R"("\ude00\ud83d")",
                                 R"("a\ud83dx")", "\"\xED\xA0\x80\"", "\"\xC0\xAF\"", "\"\x80\"", R"("\u0000")",
                                 "\"tab\there\"", R"("\/\b\f\n\r\t")", R"("")", R"("a\\ud83d")"})
    require_same(with_name(name));
  // The same in a key the reader skips, in a kernel with no other escape.
  for (const std::string key : {R"("\ud83d\ude00")", R"("\ud83d")", R"("x\ude00")", "\"\xED\xA0\x80\""}) {
    const std::string text = with_name(R"("k")");
    require_same(text.substr(0, text.size() - 3) + ", " + key + ": 1}]}");
  }
  // Integers beyond 64 bits, the double range's edges, subnormals, negative zero, exponents.
  for (const std::string number :
       {"18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
        "1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e-320", "4.9e-324", "2.4e-324", "-0",
        "-0.0", "0e0", "1E2", "1e+2", "0.1e1", "01", "1.", ".5", "+1", "1e", "0x10", "Infinity", "NaN",
        "123456789012345678901234567890", "0.30000000000000004", "9007199254740993"})
    require_same(with_w_comp(number));
}

TEST_CASE("kernels read while the scan goes on: the same kernels, or none where the text is refused") {
  json profile = sample_profile();
  profile["kernels"] = json::array();
  for (int i = 0; i < 9000; ++i)
    profile["kernels"].push_back(i % 7 ? counters_kernel("k" + std::to_string(i)) : parameters_kernel("p" + std::to_string(i)));
  const std::string text = profile.dump();
  for (const int threads : {1, 2, 4}) {
    INFO(threads << " threads");
    const auto array = split_kernel_array(text);
    std::optional<roofcast::KernelArray> read;
    tbb::task_arena(threads).execute([&] { read = read_kernel_array(text); });
    REQUIRE(read);
    CHECK(read->begin == array->begin);
    CHECK(read->end == array->end);
    REQUIRE(read->kernels.size() == 9000);
    for (size_t i = 0; i < 9000; i += 997) CHECK(read->kernels[i].name == (i % 7 ? "k" : "p") + std::to_string(i));
  }
  // Refused after the readers started: a bad kernel near the end, a name twice, a text that
  // goes wrong after the array.
  json bad = profile;
  bad["kernels"][8000]["counters"]["inst_executed"] = -1;
  json twice = profile;
  twice["kernels"][8500]["name"] = "k3";
  for (const std::string& refused : {bad.dump(), twice.dump(), text.substr(0, text.size() - 1) + ",}"}) {
    CHECK_FALSE(read_kernel_array(refused));
    require_same(refused);
  }
}
