#include "roofcast/output/ablation_output.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"

namespace roofcast {

namespace {

std::string cell(const AccuracySummary& s) {
  if (s.kernels == 0) return "-";
  return fmt::format("{:.1f} / {:.0f} ({})", 100 * s.median_ape, 100 * s.within_25, s.kernels);
}

// Column headers: every device any variant was scored on, then "all devices".
std::vector<std::string> device_headers(const std::vector<AblationRow>& rows) {
  std::vector<std::string> devices;
  for (const auto& row : rows)
    for (const auto& group : row.devices)
      if (std::find(devices.begin(), devices.end(), group.device) == devices.end()) devices.push_back(group.device);
  devices.push_back("all devices");
  return devices;
}

std::vector<std::vector<std::string>> cells(const std::vector<AblationRow>& rows, const std::vector<std::string>& headers) {
  std::vector<std::vector<std::string>> out;
  for (const auto& row : rows) {
    std::vector<std::string> line = {row.variant};
    for (const auto& header : headers) {
      if (header == "all devices") {
        line.push_back(cell(row.overall.uncorrected));
        continue;
      }
      std::string text = "-";
      for (const auto& group : row.devices)
        if (group.device == header) text = cell(group.uncorrected);
      line.push_back(text);
    }
    out.push_back(std::move(line));
  }
  return out;
}

constexpr const char* kLegend =
    "Each cell: median APE % / % of predictions within 25 % APE (predictions), without the utilization correction.";

}  // namespace

std::string ablation_table_text(const std::vector<AblationRow>& rows) {
  const auto headers = device_headers(rows);
  Table table;
  table.columns.push_back({"model", false});
  for (const auto& h : headers) table.columns.push_back({h});
  for (auto& line : cells(rows, headers)) table.add_row(std::move(line));
  return fmt::format("\nAblation\n{}\n", kLegend) + render_text(table);
}

std::string ablation_markdown(const std::vector<AblationRow>& rows) {
  const auto headers = device_headers(rows);
  std::vector<std::string> columns{"model"};
  columns.insert(columns.end(), headers.begin(), headers.end());
  return fmt::format("## Ablation\n\n{}\n\n", kLegend) + markdown_table(columns, cells(rows, headers), 1) + "\n";
}

nlohmann::json ablation_json(const std::vector<AblationRow>& rows) {
  auto summary = [](const AccuracySummary& s) {
    return nlohmann::json{{"kernels", s.kernels},     {"median_ape", s.median_ape}, {"mean_ape", s.mean_ape},
                          {"within_10", s.within_10}, {"within_25", s.within_25},   {"within_50", s.within_50}};
  };
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json by_device = nlohmann::json::array();
    for (const auto& group : row.devices) {
      nlohmann::json entry = summary(group.uncorrected);
      entry["device"] = group.device;
      by_device.push_back(entry);
    }
    out.push_back({{"model", row.variant},
                   {"overall", summary(row.overall.uncorrected)},
                   {"by_device", by_device},
                   {"errors", row.errors}});
  }
  return out;
}

}  // namespace roofcast
