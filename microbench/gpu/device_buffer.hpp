#pragma once

#include <utility>
#include <vector>

#include "gpu_runtime.hpp"

namespace roofcast::gpu {

// Device memory owning `size` elements of T; freed on destruction.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t size) : size_(size) {
    void* p = nullptr;
    ROOFCAST_GPU_CHECK(malloc_bytes(&p, size * sizeof(T)));
    data_ = static_cast<T*>(p);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer(std::move(other)).swap(*this);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_) (void)free_bytes(data_);
  }

  T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }

  // Fills every byte with `byte`: a poison value that no kernel writes.
  void poison(unsigned char byte = 0xA5) { ROOFCAST_GPU_CHECK(memset_bytes(data_, byte, bytes())); }

  std::vector<T> to_host(size_t count) const {
    std::vector<T> host(count);
    ROOFCAST_GPU_CHECK(copy_to_host(host.data(), data_, count * sizeof(T)));
    return host;
  }
  std::vector<T> to_host() const { return to_host(size_); }
  void from_host(const std::vector<T>& host) {
    ROOFCAST_GPU_CHECK(copy_to_device(data_, host.data(), host.size() * sizeof(T)));
  }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }
  T* data_ = nullptr;
  size_t size_ = 0;
};

// Two events around the timed region.
class EventPair {
 public:
  EventPair() {
    ROOFCAST_GPU_CHECK(event_create(&start_));
    ROOFCAST_GPU_CHECK(event_create(&stop_));
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  ~EventPair() {
    (void)event_destroy(start_);
    (void)event_destroy(stop_);
  }
  void start() { ROOFCAST_GPU_CHECK(event_record(start_)); }
  void stop() { ROOFCAST_GPU_CHECK(event_record(stop_)); }
  double elapsed_ms() {
    ROOFCAST_GPU_CHECK(event_synchronize(stop_));
    float ms = 0;
    ROOFCAST_GPU_CHECK(event_elapsed_ms(&ms, start_, stop_));
    return ms;
  }

 private:
  Event start_{};
  Event stop_{};
};

}  // namespace roofcast::gpu
