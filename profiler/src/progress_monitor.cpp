#include "roofcast/profiler/progress_monitor.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/collector_record_fields.hpp"
#include "roofcast/profiler/collector_protocol.hpp"

namespace roofcast::profiler {

namespace {

namespace record = collector_record;

// `"type":"launch"` as the collector writes it (compact JSON): picks the lines worth parsing.
std::string type_text(const char* type) { return fmt::format("\"{}\":\"{}\"", record::kType, type); }

}  // namespace

ProgressMonitor::ProgressMonitor(std::filesystem::path folder, std::string mode, uint64_t planned, bool show)
    : folder_(std::move(folder)), mode_(std::move(mode)), planned_(planned), show_(show) {
  if (!show_) return;
  running_ = true;
  thread_ = std::thread([this] {
    while (running_) {
      poll();
      show_line();
      for (int i = 0; i < 5 && running_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
}

ProgressMonitor::~ProgressMonitor() { stop(); }

void ProgressMonitor::stop() {
  if (running_.exchange(false) && thread_.joinable()) thread_.join();
  if (thread_.joinable()) thread_.join();
  if (shown_) {
    std::cerr << "\r\033[K" << std::flush;
    shown_ = false;
  }
}

RunProgress ProgressMonitor::progress() {
  std::lock_guard lock(mutex_);
  return progress_;
}

void ProgressMonitor::poll() {
  std::lock_guard lock(mutex_);
  const std::string prefix = fmt::format("{}{}-", protocol::kFilePrefix, mode_);
  static const std::string launch_type = type_text(record::kLaunch), progress_type = type_text(record::kProgress),
                           config_type = type_text(record::kConfig);
  std::error_code error;
  int processes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder_, error)) {
    const std::string file = entry.path().filename().string();
    if (!file.starts_with(prefix) || !file.ends_with(protocol::kFileSuffix)) continue;
    ++processes;
    std::uintmax_t& offset = offsets_[file];
    const std::uintmax_t size = std::filesystem::file_size(entry.path(), error);
    if (error || size <= offset) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    std::string chunk(size - offset, '\0');
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.resize(static_cast<size_t>(in.gcount()));
    offset += chunk.size();
    std::string& line = partial_[file];
    for (const char c : chunk) {
      if (c != '\n') {
        line += c;
        continue;
      }
      // Only the record types that count; anything unreadable is left to read_run_records.
      if (line.find(launch_type) != std::string::npos) {
        ++records_[file];
        const auto json = nlohmann::json::parse(line, nullptr, false);
        if (json.is_object() && json.contains(record::kNameKey) && json[record::kNameKey].is_string())
          kernel_names_.insert(json[record::kNameKey].get<std::string>());
      } else if (line.find(progress_type) != std::string::npos) {
        const auto json = nlohmann::json::parse(line, nullptr, false);
        if (json.is_object() && json.contains(record::kLaunchesSeenKey) &&
            json[record::kLaunchesSeenKey].is_number_unsigned())
          seen_[file] = std::max(seen_[file], json[record::kLaunchesSeenKey].get<uint64_t>());
      } else if (line.find(config_type) != std::string::npos) {
        const auto json = nlohmann::json::parse(line, nullptr, false);
        if (json.is_object() && json.contains(record::kPassesKey) && json[record::kPassesKey].is_number_unsigned())
          progress_.passes = json[record::kPassesKey].get<uint64_t>();
      }
      line.clear();
    }
  }
  progress_.processes = processes;
  progress_.launches = 0;
  for (const auto& [file, records] : records_) progress_.launches += std::max(records, seen_[file]);
  for (const auto& [file, seen] : seen_) progress_.launches += records_.contains(file) ? 0 : seen;
  progress_.kernels = kernel_names_.size();
}

void ProgressMonitor::show_line() {
  const RunProgress now = progress();
  std::string text;
  if (mode_ == "timing") {
    text = fmt::format("timing run: {} launches seen, {} kernels", now.launches, now.kernels);
  } else {
    text = fmt::format("counter run: {}{} launches profiled ({} kernels), {} replay passes", now.launches,
                       planned_ ? fmt::format("/{}", planned_) : "", now.kernels, now.launches * now.passes);
  }
  if (now.processes > 1) text += fmt::format(", {} processes", now.processes);
  std::cerr << "\r\033[Kroofcast profile: " << text << std::flush;
  shown_ = true;
}

}  // namespace roofcast::profiler
