#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <cupti.h>

#include <nlohmann/json.hpp>

namespace roofcast::profiler {

// A kernel launch as the driver launch callback sees it.
struct LaunchInfo {
  std::string name;       // mangled, as the driver knows it
  std::string demangled;
  int device = 0;
  std::array<unsigned, 3> grid{};
  std::array<unsigned, 3> block{};
  unsigned dynamic_shared_bytes = 0;
};

// True for the driver API callbacks that launch one kernel (classic, Ex, cooperative).
bool is_kernel_launch(CUpti_CallbackId cbid);

// The launch's name and shape from its callback data; nullopt for a launch it cannot read.
std::optional<LaunchInfo> read_launch(CUpti_CallbackId cbid, const CUpti_CallbackData* data);

std::string demangle(const char* mangled);

// The fields every launch record carries.
nlohmann::json launch_record(const LaunchInfo& launch, uint64_t index);

}  // namespace roofcast::profiler
