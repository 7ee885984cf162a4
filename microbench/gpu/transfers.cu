// Copy cost: host to device and device to host with pinned and pageable host memory, and
// device to device, each over a size sweep (4 KiB, 16 KiB, ... in powers of 4). Every size
// is timed between two events over the runner's repetitions, with its destination poisoned
// first and every byte that arrived checked against a pattern no earlier copy left there.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

using microbench::TransferPoint;
using microbench::TransferSweep;

constexpr size_t kSmallestBytes = 4 << 10;
constexpr unsigned char kPoison = 0xA5;

// Page-locked host memory, freed on destruction.
class PinnedHostBuffer {
 public:
  explicit PinnedHostBuffer(size_t bytes) { ROOFCAST_GPU_CHECK(host_malloc_pinned(&data_, bytes)); }
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;
  ~PinnedHostBuffer() {
    if (data_) (void)host_free_pinned(data_);
  }
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
};

// 4 KiB, 16 KiB, ... up to `largest`.
std::vector<size_t> sweep_sizes(size_t largest) {
  std::vector<size_t> sizes;
  for (size_t bytes = kSmallestBytes; bytes <= largest; bytes *= 4) sizes.push_back(bytes);
  return sizes;
}

// The words pattern.hpp's `pattern_vector` gives, written by the host.
void fill_host_pattern(void* host, size_t bytes, uint32_t seed) {
  auto* words = static_cast<uint32_t*>(host);
  for (size_t w = 0; w < bytes / 4; ++w) words[w] = static_cast<uint32_t>(w) * kPatternStep + seed;
}

std::string check_host_pattern(const void* host, size_t bytes, uint32_t seed) {
  const auto* words = static_cast<const uint32_t*>(host);
  size_t wrong = 0, first = 0;
  for (size_t w = 0; w < bytes / 4; ++w)
    if (words[w] != static_cast<uint32_t>(w) * kPatternStep + seed && wrong++ == 0) first = w;
  if (!wrong) return "";
  return fmt::format("{} of {} words wrong, first word {} holds {:#x}, expected {:#x}", wrong, bytes / 4, first,
                     words[first], static_cast<uint32_t>(first) * kPatternStep + seed);
}

std::string check_device_pattern(const DeviceBuffer<uint4>& buffer, size_t bytes, uint32_t seed) {
  const unsigned long long wrong = count_pattern_mismatches(buffer.data(), bytes / 16, seed);
  return wrong ? fmt::format("{} of {} 16-byte vectors wrong", wrong, bytes / 16) : "";
}

// What one sweep does at a size: poison the destination, copy, check the destination.
struct CopyDirection {
  std::string key;
  std::string label;
  size_t largest_bytes = 0;
  std::function<void(size_t)> poison;
  std::function<void(size_t)> copy;
  std::function<std::string(size_t)> verify;
};

TransferSweep sweep(const CopyDirection& direction, const RunPolicy& policy) {
  TransferSweep result;
  result.key = direction.key;
  result.label = direction.label;
  for (const size_t bytes : sweep_sizes(direction.largest_bytes)) {
    direction.poison(bytes);
    ROOFCAST_GPU_CHECK(device_synchronize());
    const std::vector<double> times = time_repetitions([&] { direction.copy(bytes); }, policy);
    if (const std::string problem = direction.verify(bytes); !problem.empty())
      throw VerificationError(fmt::format("{} copy of {} bytes: {}", direction.key, bytes, problem));
    TransferPoint point;
    point.bytes = static_cast<double>(bytes);
    point.time_ms = microbench::summarize(times);
    point.verified = true;
    result.points.push_back(point);
  }
  return result;
}

}  // namespace

std::vector<TransferSweep> characterize_transfers(const Context& context) {
  // Pageable copies are staged through a driver buffer and run at a fraction of the pinned
  // rate: their sweep stops 4x lower. The two device buffers stay under a quarter of free memory.
  size_t largest = (context.quick ? 16ull : 256ull) << 20;
  while (largest > kSmallestBytes && 2 * largest > context.free_bytes / 4) largest /= 4;
  // Pageable copies go through the driver's staging buffers and slow down past tens of MiB,
  // where applications copy whole arrays: the full sweep goes as far as the pinned one.
  const size_t largest_pageable = context.quick ? std::max(kSmallestBytes, largest / 4) : largest;

  DeviceBuffer<uint4> source(largest / 16), destination(largest / 16);
  PinnedHostBuffer pinned(largest);
  const std::unique_ptr<uint32_t[]> pageable(new uint32_t[largest_pageable / 4]);
  uint32_t seed = 0x5EED0000u;  // a fresh pattern for every sweep

  auto host_to_device = [&](const char* key, const char* label, void* host, size_t host_bytes) {
    const uint32_t s = ++seed;
    fill_host_pattern(host, host_bytes, s);
    return CopyDirection{key, label, host_bytes,
                         [&](size_t n) { ROOFCAST_GPU_CHECK(memset_bytes(destination.data(), kPoison, n)); },
                         [&, host](size_t n) {
                           ROOFCAST_GPU_CHECK(copy_to_device_async(destination.data(), host, n, nullptr));
                         },
                         [&, s](size_t n) { return check_device_pattern(destination, n, s); }};
  };
  auto device_to_host = [&](const char* key, const char* label, void* host, size_t host_bytes) {
    const uint32_t s = ++seed;
    fill_pattern(source, s);
    return CopyDirection{key, label, host_bytes, [host](size_t n) { std::memset(host, kPoison, n); },
                         [&, host](size_t n) {
                           ROOFCAST_GPU_CHECK(copy_to_host_async(host, source.data(), n, nullptr));
                         },
                         [host, s](size_t n) { return check_host_pattern(host, n, s); }};
  };

  std::vector<TransferSweep> sweeps;
  sweeps.push_back(sweep(host_to_device("h2d_pinned", "Host to device, pinned", pinned.data(), largest),
                         context.policy));
  sweeps.push_back(sweep(host_to_device("h2d_pageable", "Host to device, pageable", pageable.get(),
                                        largest_pageable),
                         context.policy));
  sweeps.push_back(sweep(device_to_host("d2h_pinned", "Device to host, pinned", pinned.data(), largest),
                         context.policy));
  sweeps.push_back(sweep(device_to_host("d2h_pageable", "Device to host, pageable", pageable.get(),
                                        largest_pageable),
                         context.policy));

  const uint32_t d2d_seed = ++seed;
  fill_pattern(source, d2d_seed);
  const CopyDirection d2d{"d2d", "Device to device", largest,
                          [&](size_t n) { ROOFCAST_GPU_CHECK(memset_bytes(destination.data(), kPoison, n)); },
                          [&](size_t n) {
                            ROOFCAST_GPU_CHECK(copy_device_async(destination.data(), source.data(), n, nullptr));
                          },
                          [&](size_t n) { return check_device_pattern(destination, n, d2d_seed); }};
  sweeps.push_back(sweep(d2d, context.policy));
  return sweeps;
}

}  // namespace roofcast::gpu
