// Device profiles derived from the spec table and a measured profile's achieved/peak
// (docs/derived-devices.md), from the shipped data: derived from itself a GPU is its measurement,
// from the other GPU it lands near it, and what is derived says so everywhere.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "roofcast/data/spec_devices.hpp"
#include "roofcast/formats/gpu_specs_json.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/bench_keys.hpp"
#include "roofcast/model/derived_device.hpp"

using roofcast::DerivationRequest;
using roofcast::derive_device;

namespace {

const roofcast::MeasuredReference& reference_named(const roofcast::SpecInputs& inputs, const std::string& id) {
  for (const auto& r : inputs.references)
    if (r.id == id) return r;
  FAIL("no measured profile " << id);
  return inputs.references.front();
}

double value(const roofcast::DeviceProfile& device, const std::string& key) {
  if (key == "fp32_gflops") return device.throughput.fp32_gflops;
  if (key == "dram_gbps") return device.throughput.dram_gbps;
  const auto it = device.extra_throughput.find(key);
  return it == device.extra_throughput.end() ? 0 : it->second;
}

}  // namespace

TEST_CASE("a GPU derived from its own measured profile is that measurement") {
  const auto inputs = roofcast::load_spec_inputs();
  for (const char* id : {"h100-sxm", "h200-sxm"}) {
    INFO(id);
    const auto derived = derive_device(inputs.table, inputs.references, {id, 100, id});
    const auto& measured = reference_named(inputs, id).profile;
    CHECK(derived.profile.sm_count == measured.sm_count);
    CHECK(derived.profile.sm_clock_mhz == Approx(measured.sm_clock_mhz));
    for (const auto& k : derived.keys) {
      INFO(k.key);
      CHECK(k.ratio == Approx(1).epsilon(1e-9));
      if (!k.key.starts_with("transfers.")) CHECK(value(derived.profile, k.key) == Approx(value(measured, k.key)));
    }
    // It carries every bench key the model reads that the measurement has.
    CHECK(roofcast::missing_bench_keys(derived.profile).empty());
  }
}

TEST_CASE("H200 derived from the H100's measurements only lands near the H200's own") {
  const auto inputs = roofcast::load_spec_inputs();
  const auto derived = derive_device(inputs.table, inputs.references, {"h200-sxm", 100, "h100-sxm"});
  const auto& h200 = reference_named(inputs, "h200-sxm").profile;
  CHECK(derived.reference->id == "h100-sxm");
  CHECK(derived.profile.derivation->relation == "another GPU of the same architecture (sm_90)");
  CHECK(derived.profile.name == "NVIDIA H200 SXM 141GB (derived)");
  // Compute is the same silicon; DRAM scales with the datasheet's 4.8 / 3.35 TB/s.
  CHECK(derived.profile.throughput.fp32_gflops == Approx(h200.throughput.fp32_gflops).epsilon(0.02));
  CHECK(value(derived.profile, "dram_read_gbps") == Approx(value(h200, "dram_read_gbps")).epsilon(0.05));
  CHECK(value(derived.profile, "latency_dram_ns") == Approx(value(h200, "latency_dram_ns")).epsilon(0.05));
  CHECK(derived.profile.l2_bytes == 62914560);
}

TEST_CASE("an MPS partition is derived from the reference's partition of the same share") {
  const auto inputs = roofcast::load_spec_inputs();
  const auto request = roofcast::spec_device_request("spec:h200-sxm-mps25");
  REQUIRE(request);
  CHECK(request->mps_percentage == 25);
  auto from_h100 = *request;
  from_h100.fractions_from = "h100-sxm";
  const auto derived = derive_device(inputs.table, inputs.references, from_h100);
  CHECK(derived.reference->id == "h100-sxm-mps25");
  CHECK(derived.profile.sm_count == 32);
  CHECK(derived.profile.name == "NVIDIA H200 SXM 141GB (MPS 25%) (derived)");
  // Under MPS the partition's DRAM rate is not 25 % of the whole GPU's: it is the whole GPU's
  // (x 4800 / 3350 GB/s) in a knee with what the partition's 32 SMs can draw, which the H100's
  // partition measured and which does not grow with the datasheet's bandwidth.
  const auto& h100_mps25 = reference_named(inputs, "h100-sxm-mps25").profile;
  const auto& h200_mps25 = reference_named(inputs, "h200-sxm-mps25").profile;
  const double read = value(derived.profile, "dram_read_gbps");
  CHECK(read > value(h100_mps25, "dram_read_gbps"));
  CHECK(read < value(h100_mps25, "dram_read_gbps") * 4800 / 3350);
  CHECK(read == Approx(value(h200_mps25, "dram_read_gbps")).epsilon(0.1));
  const auto key = std::find_if(derived.keys.begin(), derived.keys.end(), [](const auto& k) { return k.key == "dram_read_gbps"; });
  REQUIRE(key != derived.keys.end());
  CHECK(key->scaling == roofcast::Scaling::partition_knee);
}

TEST_CASE("a GPU of an unmeasured architecture takes the nearest one's achieved/peak, and says so") {
  const auto inputs = roofcast::load_spec_inputs();
  const auto a100 = derive_device(inputs.table, inputs.references, {"a100-sxm-80gb", 100, ""});
  CHECK(a100.profile.derivation->relation == "the nearest measured architecture (sm_90 for sm_80)");
  CHECK(a100.profile.sm_count == 108);
  // Ampere's full tensor rate is mma.sync: the reference's full-rate path (wgmma) lends its share.
  const auto& h100 = reference_named(inputs, a100.reference->id).profile;
  REQUIRE(a100.reference->id == "h100-sxm");
  CHECK(value(a100.profile, "tensor_fp16_gflops") == Approx(value(h100, "tensor_wgmma_fp16_gflops") * 312 / 989.4));
  CHECK(value(a100.profile, "tensor_wgmma_fp16_gflops") == 0);
  CHECK(a100.profile.throughput.fp64_gflops == Approx(9.7e3 * 0.99).epsilon(0.03));
  CHECK(value(a100.profile, "dram_read_gbps") < 2039);

  const auto l4 = derive_device(inputs.table, inputs.references, {"l4", 100, ""});
  CHECK(value(l4.profile, "tensor_fp64_gflops") == 0);  // no FP64 tensor cores on Ada
  CHECK(l4.profile.occupancy.max_threads_per_sm == 1536);

  const auto mi300x = derive_device(inputs.table, inputs.references, {"mi300x", 100, ""});
  CHECK_THAT(mi300x.profile.derivation->relation, Catch::Contains("another vendor's architecture"));
  CHECK_THROWS_AS(derive_device(inputs.table, inputs.references, {"mi300x", 50, ""}), roofcast::InputError);
}

TEST_CASE("a derived profile stays marked derived through its JSON") {
  const auto inputs = roofcast::load_spec_inputs();
  const auto derived = derive_device(inputs.table, inputs.references, {"l40s", 100, ""});
  const auto document = roofcast::derived_device_json(derived, "roofcast devices --from-spec l40s");
  CHECK(document["provenance"]["derived"]["spec"] == "l40s");
  CHECK(document["provenance"]["derived"]["scaling"]["dram_read_gbps"]["scaled_by"] == "datasheet memory bandwidth");
  const auto read_back = roofcast::parse_device_profile(document.dump(), "l40s.json");
  REQUIRE(read_back.derivation);
  CHECK(read_back.derivation->spec_id == "l40s");
  CHECK(read_back.derivation->fractions_from == derived.reference->id);
  CHECK(read_back.throughput.fp32_gflops == Approx(derived.profile.throughput.fp32_gflops));
}

TEST_CASE("bad derivation requests are refused in one line") {
  const auto inputs = roofcast::load_spec_inputs();
  CHECK_THROWS_WITH(derive_device(inputs.table, inputs.references, {"h300", 100, ""}),
                    Catch::Contains("--from-spec h300: no such GPU") && Catch::Contains("a100-sxm-80gb"));
  CHECK_THROWS_WITH(derive_device(inputs.table, inputs.references, {"a100-sxm-80gb", 100, "thesis-gtx-480"}),
                    Catch::Contains("--fractions-from thesis-gtx-480: not a measured device profile"));
  CHECK_THROWS_AS(roofcast::spec_device_request("spec:h100-sxm-mpsx"), roofcast::InputError);
  CHECK_THROWS_AS(roofcast::spec_device_request("spec:"), roofcast::InputError);
  CHECK_FALSE(roofcast::spec_device_request("h100-sxm"));
}
