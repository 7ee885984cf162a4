// An integer-heavy kernel: every element goes through many rounds of a multiply-xorshift
// hash (32-bit multiplies, adds, xors and shifts, no floating point), so the kernel is
// bound by integer throughput, not memory.
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr int kRounds = 64;
constexpr unsigned kThreads = 256;

__host__ __device__ inline std::uint32_t hash_rounds(std::uint32_t x, std::uint32_t key) {
#pragma unroll 8
  for (int r = 0; r < kRounds; ++r) {
    x = x * 0x9E3779B1u + key;
    x ^= x >> 15;
    x = x * 0x85EBCA77u + static_cast<std::uint32_t>(r);
    x ^= x << 5;
  }
  return x;
}

__global__ void int_hash(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, size_t n,
                         std::uint32_t key) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = hash_rounds(in[i], key);
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "int_heavy", "integer multiply-xorshift hash, 64 rounds");
  const size_t n = options.small ? (size_t{1} << 16) : (size_t{1} << 26);
  print_header("int_heavy", std::to_string(n) + " uint32, " + std::to_string(kRounds) + " rounds");

  std::vector<std::uint32_t> in(n);
  fill_bits(in, fresh_seed());
  const std::uint32_t key = static_cast<std::uint32_t>(fresh_seed()) | 1u;
  DeviceBuffer<std::uint32_t> in_d(n), out_d(n);
  in_d.upload(in);
  const unsigned blocks = blocks_for(n, kThreads);
  auto launch = [&] { int_hash<<<blocks, kThreads>>>(in_d.get(), out_d.get(), n, key); };

  out_d.poison();
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<std::uint32_t> out = out_d.download();
  const auto checked = elements_to_check(n, size_t{1} << 20);
  size_t wrong = 0;
  for (const size_t i : checked) wrong += out[i] != hash_rounds(in[i], key);
  const bool ok = report_check("int_hash", wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(checked.size()) +
                                   " checked elements differ from host");

  time_kernel("int_hash", options, launch);
  return ok ? 0 : 1;
}
