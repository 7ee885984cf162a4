#pragma once

// Helpers of the collector's GPU tests: fresh folders, and the profiles `roofcast profile` wrote.

#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"

// An empty folder under the temp folder, named after the test and this process.
inline std::filesystem::path fresh_test_folder(const std::string& prefix, const std::string& name) {
  const auto folder = std::filesystem::temp_directory_path() / (prefix + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

// A profile's JSON, after roofcast's own reader has accepted it.
inline nlohmann::json read_checked_profile(const std::filesystem::path& path) {
  const std::string text = roofcast::read_text_file(path);
  roofcast::parse_kernel_profile(text, path.string());
  return nlohmann::json::parse(text);
}

// Kernels by name without their parameter list ("tree_step(float*, float)" -> "tree_step").
inline std::map<std::string, nlohmann::json> kernels_by_short_name(const nlohmann::json& profile) {
  std::map<std::string, nlohmann::json> kernels;
  for (const auto& kernel : profile["kernels"]) {
    const std::string name = kernel["name"];
    kernels[name.substr(0, name.find('('))] = kernel;
  }
  return kernels;
}
