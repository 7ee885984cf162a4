#include "roofcast/model/derived_device.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/model/device_name.hpp"

namespace roofcast {

namespace {

constexpr double kWholeGpu = 100;

// Every throughput key a derived profile carries, and what limits it. Keys a measured profile
// has beyond these (the mixbench sweep, probes of the bench itself) are not carried over.
struct KeyScaling {
  std::string_view key;
  Scaling scaling;
};
constexpr std::array<KeyScaling, 58> kKeyScalings{{
    {"fp32_gflops", Scaling::sm_rate},
    {"fp64_gflops", Scaling::sm_rate},
    {"half2_gflops", Scaling::sm_rate},
    {"int32_mad_giops", Scaling::sm_rate},
    {"int32_add_giops", Scaling::sm_rate},
    {"shared_ldst_gops", Scaling::sm_rate},
    {"shared_ldst64_gops", Scaling::sm_rate},
    {"shared_ldst128_gops", Scaling::sm_rate},
    {"atomic_shared_gops", Scaling::sm_rate},
    {"l1_gbps", Scaling::sm_rate},
    {"pipe_fma_gwips", Scaling::sm_rate},
    {"pipe_alu_gwips", Scaling::sm_rate},
    {"pipe_fmaheavy_gwips", Scaling::sm_rate},
    {"pipe_fp64_gwips", Scaling::sm_rate},
    {"pipe_fp16_gwips", Scaling::sm_rate},
    {"pipe_xu_gwips", Scaling::sm_rate},
    {"pipe_lsu_gwips", Scaling::sm_rate},
    {"pipe_issue_gwips", Scaling::sm_rate},
    {"block_dispatch_gblocks", Scaling::sm_rate},
    {"dram_probe_gbps", Scaling::sm_rate},
    {"tensor_fp16_gflops", Scaling::tensor},
    {"tensor_bf16_gflops", Scaling::tensor},
    {"tensor_tf32_gflops", Scaling::tensor},
    {"tensor_fp64_gflops", Scaling::tensor},
    {"tensor_int8_giops", Scaling::tensor},
    {"tensor_wgmma_fp16_gflops", Scaling::tensor},
    {"tensor_wgmma_bf16_gflops", Scaling::tensor},
    {"tensor_wgmma_tf32_gflops", Scaling::tensor},
    {"tensor_wgmma_int8_giops", Scaling::tensor},
    {"dram_gbps", Scaling::dram},
    {"dram_read_gbps", Scaling::dram},
    {"dram_write_gbps", Scaling::dram},
    {"dram_copy_gbps", Scaling::dram},
    {"dram_elementwise_add_gbps", Scaling::dram},
    {"memcpy_d2d_gbps", Scaling::dram},
    {"l2_gbps", Scaling::l2},
    {"atomic_global_gops", Scaling::l2},
    {"atomic_global_scattered_gops", Scaling::l2},
    {"atomic_global_same_address_gops", Scaling::clock},
    {"atomic_global_same_word_gops", Scaling::clock},
    {"atomic_global_same_word_f32_gops", Scaling::clock},
    {"dram_latency_ns", Scaling::cycles},
    {"warp_issue_interval_ns", Scaling::cycles},
    {"latency_ffma_ns", Scaling::cycles},
    {"latency_dfma_ns", Scaling::cycles},
    {"latency_imad_ns", Scaling::cycles},
    {"latency_hfma2_ns", Scaling::cycles},
    {"latency_mufu_ns", Scaling::cycles},
    {"latency_shared_load_ns", Scaling::cycles},
    {"latency_l1_hit_ns", Scaling::cycles},
    {"latency_l2_hit_ns", Scaling::cycles},
    {"latency_dram_ns", Scaling::cycles},
    {"latency_dram_warp_ns", Scaling::cycles},
    {"latency_atomic_global_ns", Scaling::cycles},
    {"latency_atomic_shared_ns", Scaling::cycles},
    {"kernel_floor_us", Scaling::fixed},
    {"launch_overhead_us", Scaling::fixed},
    {"tiny_kernel_us", Scaling::fixed},
}};

// What one SM of `arch` does per clock for a key scaled by SMs x clock; 0 when it cannot.
double per_sm_rate(const ArchitectureSpec& arch, std::string_view key) {
  const auto lanes = [&](const char* name) {
    const auto it = arch.lanes_per_clock.find(name);
    return it == arch.lanes_per_clock.end() ? 0.0 : it->second;
  };
  if (key == "fp32_gflops") return 2 * lanes("fp32_fma");
  if (key == "fp64_gflops") return 2 * lanes("fp64_fma");
  if (key == "half2_gflops") return 2 * lanes("fp16");
  if (key == "int32_mad_giops") return 2 * lanes("int32_mad");
  if (key == "int32_add_giops") return lanes("int32_add");
  if (key == "shared_ldst_gops" || key == "atomic_shared_gops") return arch.shared_bytes_per_clock / 4;
  if (key == "shared_ldst64_gops") return arch.shared_bytes_per_clock / 8;
  if (key == "shared_ldst128_gops") return arch.shared_bytes_per_clock / 16;
  if (key == "l1_gbps") return arch.l1_bytes_per_clock;
  if (key == "block_dispatch_gblocks" || key == "dram_probe_gbps") return 1;  // per SM, as measured
  if (key.starts_with("pipe_") && key.ends_with("_gwips")) {
    const std::string pipe(key.substr(5, key.size() - 11));
    const auto it = arch.pipe_warp_instructions_per_clock.find(pipe);
    return it == arch.pipe_warp_instructions_per_clock.end() ? 0.0 : it->second;
  }
  return 0;
}

// The data type of a tensor key: "tensor_wgmma_bf16_gflops" -> "bf16".
std::string tensor_type(std::string_view key) {
  std::string_view rest = key.substr(7);  // after "tensor_"
  if (rest.starts_with("wgmma_")) rest.remove_prefix(6);
  return std::string(rest.substr(0, rest.find('_')));
}

bool is_wgmma_key(std::string_view key) { return key.starts_with("tensor_wgmma_"); }

// Instructions that reach the datasheet rate as a warpgroup (Hopper's wgmma, Blackwell's tcgen05).
bool full_rate_is_warpgroup(const ArchitectureSpec& arch) {
  return arch.tensor_full_rate_instruction == "wgmma" || arch.tensor_full_rate_instruction == "tcgen05";
}

double value_of(const DeviceProfile& device, std::string_view key) {
  const auto& t = device.throughput;
  if (key == "fp32_gflops") return t.fp32_gflops;
  if (key == "fp64_gflops") return t.fp64_gflops;
  if (key == "int32_mad_giops") return t.int32_mad_giops;
  if (key == "int32_add_giops") return t.int32_add_giops;
  if (key == "shared_ldst_gops") return t.shared_ldst_gops;
  if (key == "dram_gbps") return t.dram_gbps;
  const auto it = device.extra_throughput.find(std::string(key));
  return it == device.extra_throughput.end() ? 0 : it->second;
}

void set_value(DeviceProfile& device, std::string_view key, double value) {
  auto& t = device.throughput;
  if (key == "fp32_gflops") t.fp32_gflops = value;
  else if (key == "fp64_gflops") t.fp64_gflops = value;
  else if (key == "int32_mad_giops") t.int32_mad_giops = value;
  else if (key == "int32_add_giops") t.int32_add_giops = value;
  else if (key == "shared_ldst_gops") t.shared_ldst_gops = value;
  else if (key == "dram_gbps") t.dram_gbps = value;
  else device.extra_throughput[std::string(key)] = value;
}

// How far apart two architectures are when choosing whose achieved/peak to take.
int architecture_distance(const ArchitectureSpec& a, const ArchitectureSpec& b) {
  if (a.arch == b.arch) return 0;
  if (a.vendor != b.vendor || a.compute_capability == 0 || b.compute_capability == 0) return 1000;
  return std::abs(a.compute_capability - b.compute_capability);
}

struct Candidate {
  const MeasuredReference* reference;
  const GpuSpec* gpu;
};

std::vector<Candidate> usable_references(const GpuSpecTable& table, const std::vector<MeasuredReference>& references) {
  std::vector<Candidate> usable;
  for (const auto& r : references)
    if (const GpuSpec* gpu = table.gpu_of_device_name(r.device_name); gpu && r.profile.sm_count > 0 && r.profile.sm_clock_mhz > 0)
      usable.push_back({&r, gpu});
  std::sort(usable.begin(), usable.end(), [](const Candidate& a, const Candidate& b) { return a.reference->id < b.reference->id; });
  return usable;
}

Candidate choose_reference(const GpuSpecTable& table, const std::vector<Candidate>& usable, const GpuSpec& target,
                           const DerivationRequest& request) {
  std::vector<Candidate> pool;
  if (!request.fractions_from.empty()) {
    const auto named = std::find_if(usable.begin(), usable.end(), [&](const Candidate& c) {
      return same_device_name(c.reference->id, request.fractions_from);
    });
    if (named == usable.end()) {
      std::vector<std::string> ids;
      for (const auto& c : usable) ids.push_back(c.reference->id);
      throw InputError(fmt::format("--fractions-from {}: not a measured device profile of a GPU in the spec table ({})",
                                   request.fractions_from, fmt::join(ids, ", ")));
    }
    for (const auto& c : usable)
      if (same_device_name(c.reference->device_name, named->reference->device_name)) pool.push_back(c);
  } else {
    const ArchitectureSpec& target_arch = table.architecture_of(target);
    auto rank = [&](const Candidate& c) {
      if (c.gpu == &target) return -1;
      return architecture_distance(table.architecture_of(*c.gpu), target_arch);
    };
    int best = std::numeric_limits<int>::max();
    for (const auto& c : usable) best = std::min(best, rank(c));
    for (const auto& c : usable)
      if (rank(c) == best) pool.push_back(c);
    // One GPU: the first by id among the nearest, then its partition nearest the share.
    const std::string device = pool.front().reference->device_name;
    std::erase_if(pool, [&](const Candidate& c) { return c.reference->device_name != device; });
  }
  return *std::min_element(pool.begin(), pool.end(), [&](const Candidate& a, const Candidate& b) {
    return std::abs(a.reference->mps_percentage - request.mps_percentage) <
           std::abs(b.reference->mps_percentage - request.mps_percentage);
  });
}

std::string relation_text(const GpuSpecTable& table, const GpuSpec& target, const Candidate& reference) {
  const ArchitectureSpec& target_arch = table.architecture_of(target);
  const ArchitectureSpec& reference_arch = table.architecture_of(*reference.gpu);
  if (reference.gpu == &target) return "the same GPU";
  if (target_arch.arch == reference_arch.arch) return fmt::format("another GPU of the same architecture ({})", target_arch.arch);
  if (target_arch.vendor != reference_arch.vendor)
    return fmt::format("another vendor's architecture ({} for {}): a rough estimate", reference_arch.arch, target_arch.arch);
  return fmt::format("the nearest measured architecture ({} for {})", reference_arch.arch, target_arch.arch);
}

// The tensor peak of `type` on `gpu` with `sm_count` of its SMs; 0 when it has none.
double tensor_peak(const GpuSpec& gpu, const std::string& type, int sm_count) {
  const auto it = gpu.tensor_tflops.find(type);
  return it == gpu.tensor_tflops.end() ? 0 : it->second * sm_count / gpu.sm_count;
}

}  // namespace

std::string_view to_string(Scaling scaling) {
  switch (scaling) {
    case Scaling::sm_rate: return "SMs x clock x per-SM rate";
    case Scaling::tensor: return "datasheet tensor peak";
    case Scaling::dram: return "datasheet memory bandwidth";
    case Scaling::l2: return "L2 size x clock";
    case Scaling::clock: return "clock";
    case Scaling::cycles: return "cycles at the clock";
    case Scaling::fixed: return "same time";
    case Scaling::host_link: return "host link bandwidth";
    case Scaling::partition_knee: return "whole GPU's, in a knee with the partition's SMs";
  }
  return "";
}

DerivedDevice derive_device(const GpuSpecTable& table, const std::vector<MeasuredReference>& references,
                            const DerivationRequest& request) {
  const GpuSpec* target = table.find_gpu(request.spec_id);
  if (!target) {
    std::vector<std::string> ids;
    for (const auto& g : table.gpus) ids.push_back(g.id);
    throw InputError(fmt::format("--from-spec {}: no such GPU in {} ({})", request.spec_id, table.source, fmt::join(ids, ", ")));
  }
  const ArchitectureSpec& target_arch = table.architecture_of(*target);
  if (!(request.mps_percentage > 0 && request.mps_percentage <= kWholeGpu))
    throw InputError(fmt::format("--mps {}: an MPS share is a percentage above 0 and at most 100", request.mps_percentage));
  if (request.mps_percentage < kWholeGpu && target_arch.vendor != "nvidia")
    throw InputError(fmt::format("--mps {}: {} is not an NVIDIA GPU; MPS partitions exist on NVIDIA GPUs only",
                                 request.mps_percentage, target->name));
  const std::vector<Candidate> usable = usable_references(table, references);
  if (usable.empty())
    throw InputError(fmt::format("{}: no measured device profile (data/devices/measured) is of a GPU the spec table "
                                 "lists, so there is no achieved/peak to derive a profile from",
                                 table.source));
  const Candidate chosen = choose_reference(table, usable, *target, request);
  const MeasuredReference& reference = *chosen.reference;
  const GpuSpec& reference_gpu = *chosen.gpu;
  const ArchitectureSpec& reference_arch = table.architecture_of(reference_gpu);

  DerivedDevice derived;
  derived.gpu = target;
  derived.reference = &reference;
  derived.mps_percentage = request.mps_percentage;
  const int target_sms = mps_partition_sm_count(target->sm_count, request.mps_percentage);
  const int reference_sms = reference.profile.sm_count;
  const double reference_clock = reference.profile.sm_clock_mhz;
  const double reference_max_clock = reference.max_sm_clock_mhz > 0 ? reference.max_sm_clock_mhz : reference_gpu.boost_clock_mhz;
  derived.sm_clock_ratio = reference_clock / reference_max_clock;
  const double target_clock = target->boost_clock_mhz * derived.sm_clock_ratio;

  DeviceProfile& profile = derived.profile;
  profile.name = target->name + (request.mps_percentage < kWholeGpu ? fmt::format(" (MPS {:g}%)", request.mps_percentage) : "") +
                 " (derived)";
  profile.source = "spec:" + target->id +
                   (request.mps_percentage < kWholeGpu ? fmt::format("-mps{:g}", request.mps_percentage) : "");
  profile.sm_count = target_sms;
  profile.sm_clock_mhz = target_clock;
  profile.l2_bytes = target->l2_bytes;
  profile.occupancy = target_arch.occupancy;
  profile.derivation = DeviceDerivation{target->id, reference.id, relation_text(table, *target, chosen)};

  // For a partition: the reference GPU's whole-GPU profile, whose DRAM and L2 the partition shares.
  const MeasuredReference* reference_whole = nullptr;
  if (request.mps_percentage < kWholeGpu && reference.mps_percentage < kWholeGpu)
    for (const auto& r : references)
      if (r.mps_percentage >= kWholeGpu && same_device_name(r.device_name, reference.device_name)) reference_whole = &r;
  if (request.mps_percentage < kWholeGpu && !reference_whole)
    derived.notes.push_back("no whole-GPU profile of the reference: DRAM and L2 scaled from its partition alone");

  const bool target_warpgroup = full_rate_is_warpgroup(target_arch);
  const bool reference_warpgroup = full_rate_is_warpgroup(reference_arch);
  std::vector<std::string> left_out;
  for (const auto& [key, scaling] : kKeyScalings) {
    std::string reference_key(key);
    double ratio = 0;
    switch (scaling) {
      case Scaling::sm_rate: {
        const double reference_rate = per_sm_rate(reference_arch, key), target_rate = per_sm_rate(target_arch, key);
        if (reference_rate > 0)
          ratio = target_sms * target_clock * target_rate / (reference_sms * reference_clock * reference_rate);
        break;
      }
      case Scaling::tensor: {
        const std::string type = tensor_type(key);
        if (is_wgmma_key(key) && !target_warpgroup) break;  // the full rate is the mma.sync keys' there
        // A full-rate mma.sync (Ampere, Ada, AMD's MFMA) takes the reference's full-rate path: wgmma on Hopper.
        if (!is_wgmma_key(key) && !target_warpgroup && reference_warpgroup && type != "fp64")
          reference_key = std::string(key).insert(7, "wgmma_");
        const double reference_peak = tensor_peak(reference_gpu, type, reference_sms);
        if (reference_peak > 0) ratio = tensor_peak(*target, type, target_sms) / reference_peak;
        break;
      }
      case Scaling::dram: ratio = target->memory_gbps / reference_gpu.memory_gbps; break;
      case Scaling::l2: ratio = target->l2_bytes * target_clock / (reference_gpu.l2_bytes * reference_clock); break;
      case Scaling::clock: ratio = target_clock / reference_clock; break;
      case Scaling::cycles: ratio = reference_clock / target_clock; break;
      case Scaling::fixed: ratio = 1; break;
      case Scaling::host_link:
      case Scaling::partition_knee: break;
    }
    const double reference_value = value_of(reference.profile, reference_key);
    if (reference_value <= 0) continue;  // the reference lacks it
    if (ratio <= 0) {
      left_out.emplace_back(key);
      continue;
    }
    double value = reference_value * ratio;
    Scaling scaled_by = scaling;
    if ((scaling == Scaling::dram || scaling == Scaling::l2) && reference_whole && key != "dram_gbps") {
      // The partition's SMs' own limit, from the reference partition and its whole GPU: where
      // the partition drew less than the whole GPU, 1 / S^2 = 1 / partition^2 - 1 / whole^2.
      const double whole = value_of(reference_whole->profile, key);
      if (whole > reference_value) {
        const double sms_limit = 1 / std::sqrt(1 / (reference_value * reference_value) - 1 / (whole * whole));
        const double target_whole = whole * ratio;
        const double target_sms_limit = sms_limit * target_sms * target_clock / (reference_sms * reference_clock);
        value = 1 / std::sqrt(1 / (target_whole * target_whole) + 1 / (target_sms_limit * target_sms_limit));
        scaled_by = Scaling::partition_knee;
      }
    }
    set_value(profile, key, value);
    derived.keys.push_back({std::string(key), scaled_by, reference_key, reference_value, value / reference_value, value});
  }
  // B_mem is the mean of the read, write and copy bandwidths, as roofcast bench writes it.
  if (reference_whole) {
    const double read = value_of(profile, "dram_read_gbps"), write = value_of(profile, "dram_write_gbps"),
                 copy = value_of(profile, "dram_copy_gbps");
    auto b_mem = std::find_if(derived.keys.begin(), derived.keys.end(), [](const DerivedKey& k) { return k.key == "dram_gbps"; });
    if (read > 0 && write > 0 && copy > 0 && b_mem != derived.keys.end()) {
      b_mem->value = (read + write + copy) / 3;
      b_mem->ratio = b_mem->value / b_mem->reference_value;
      b_mem->scaling = Scaling::partition_knee;
      profile.throughput.dram_gbps = b_mem->value;
    }
  }
  if (!left_out.empty())
    derived.notes.push_back(fmt::format("left out (no such unit or path on {}): {}", target_arch.arch, fmt::join(left_out, ", ")));

  for (const auto& [key, fit] : reference.profile.transfers) {
    const bool device_to_device = key == "d2d";
    const double ratio = device_to_device ? target->memory_gbps / reference_gpu.memory_gbps
                                          : target->host_link_gbps / reference_gpu.host_link_gbps;
    profile.transfers[key] = {fit.bandwidth_gbps * ratio, fit.latency_us};
    derived.keys.push_back({"transfers." + key + ".bandwidth_gbps", device_to_device ? Scaling::dram : Scaling::host_link,
                            "transfers." + key + ".bandwidth_gbps", fit.bandwidth_gbps, ratio, fit.bandwidth_gbps * ratio});
  }

  if (reference_gpu.id != target->id && reference_arch.arch == target_arch.arch)
    derived.notes.push_back(fmt::format("achieved/peak of {} ({}), same architecture", reference.id, reference_gpu.name));
  if (reference_arch.arch != target_arch.arch)
    derived.notes.push_back(fmt::format("no measured profile of {}: achieved/peak of {} ({}, {}), {}", target_arch.arch,
                                        reference.id, reference_gpu.name, reference_arch.arch,
                                        profile.derivation->relation));
  if (std::abs(reference.mps_percentage - request.mps_percentage) > 0.5)
    derived.notes.push_back(fmt::format("measured partition nearest {:g} %: {} ({:g} %)", request.mps_percentage, reference.id,
                                        reference.mps_percentage));
  if (target_arch.tensor_full_rate_instruction == "tcgen05" && reference_arch.arch != target_arch.arch)
    derived.notes.push_back("mma.sync at the reference's share of its dense tensor peak (unmeasured on this architecture); "
                            "wgmma kernels at the datasheet rate, as tcgen05 reaches it");
  return derived;
}

}  // namespace roofcast
