#include "roofcast/profiler/launch_sample.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <string_view>

namespace roofcast::profiler {

namespace {

// The sampled occurrence nearest the middle of slice i of `sample` equal slices of `total`.
uint64_t position(uint64_t i, uint64_t total, uint64_t sample) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(2 * i + 1) * total) / (2 * sample));
}

// One unsigned field of a plan line and the space after it; false when there is none.
template <typename Number>
bool read_field(std::string_view& text, Number& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data() || end == text.data() + text.size() || *end != ' ') return false;
  text.remove_prefix(static_cast<size_t>(end - text.data()) + 1);
  return true;
}

}  // namespace

bool is_sampled(uint64_t occurrence, uint64_t total, uint64_t sample) {
  if (sample == 0) return true;
  if (occurrence >= total) return false;  // more launches than the timing run saw: those are enough
  if (total <= sample) return true;
  // position() grows by total/sample > 1 per slice: only the slices next to the one holding
  // `occurrence` can hit it.
  const uint64_t slice = static_cast<uint64_t>((static_cast<unsigned __int128>(occurrence) * sample) / total);
  for (uint64_t i = slice > 0 ? slice - 1 : 0; i <= slice + 1 && i < sample; ++i)
    if (position(i, total, sample) == occurrence) return true;
  return false;
}

uint64_t in_run_step(uint64_t total, uint64_t sample) {
  uint64_t step = 1;
  if (sample == 0) return step;
  // total >= sample x 3 x step: slices 3 times as wide still leave `sample`.
  while (total / 3 >= sample * step) step *= 3;
  return step;
}

bool in_run_sampled(uint64_t occurrence, uint64_t total, uint64_t sample) {
  if (occurrence >= total) return false;
  const uint64_t step = in_run_step(total, sample);
  return occurrence % step == step / 2;  // the middle of its slice (step is odd)
}

void SamplePlan::add(const SampleShape& shape, uint64_t launches, uint64_t already_profiled) {
  Counts& known = shapes_[shape];
  if (launches > known.launches) known.launches = launches;
  if (already_profiled > known.already_profiled) known.already_profiled = already_profiled;
}

std::optional<uint64_t> SamplePlan::launches(const SampleShape& shape) const {
  const auto found = shapes_.find(shape);
  if (found == shapes_.end()) return std::nullopt;
  return found->second.launches;
}

uint64_t SamplePlan::already_profiled(const SampleShape& shape) const {
  const auto found = shapes_.find(shape);
  return found == shapes_.end() ? 0 : found->second.already_profiled;
}

std::vector<SampleShape> SamplePlan::shapes() const {
  std::vector<SampleShape> keys;
  for (const auto& [shape, counts] : shapes_) keys.push_back(shape);
  return keys;
}

bool SamplePlan::write(const std::string& path) const {
  std::ofstream out(path);
  for (const auto& [shape, counts] : shapes_) {
    const auto& [name, grid, block] = shape;
    out << counts.launches << ' ' << counts.already_profiled << ' ' << grid[0] << ' ' << grid[1] << ' ' << grid[2]
        << ' ' << block[0] << ' ' << block[1] << ' ' << block[2] << ' ' << name << '\n';
  }
  out.flush();
  return static_cast<bool>(out);
}

// Parsed by hand, not by an istream: the plan is read inside the application, whose process
// may hold another C++ runtime's stream facets (under the collector, extraction of a number
// once returned without reading it, and every shape was misread).
std::optional<SamplePlan> SamplePlan::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  SamplePlan plan;
  for (std::string line; std::getline(in, line);) {
    std::string_view text = line;
    uint64_t launches = 0, already_profiled = 0;
    std::array<unsigned, 3> grid{}, block{};
    if (!read_field(text, launches) || !read_field(text, already_profiled)) return std::nullopt;
    for (unsigned* value : {&grid[0], &grid[1], &grid[2], &block[0], &block[1], &block[2]})
      if (!read_field(text, *value)) return std::nullopt;
    if (text.empty()) return std::nullopt;
    plan.add({std::string(text), grid, block}, launches, already_profiled);
  }
  return plan;
}

bool same_instruction_counts(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > kInstructionTolerance * std::max(std::abs(a[i]), std::abs(b[i]))) return false;
  return true;
}

bool LaunchSampler::take(const SampleShape& shape, double own_seconds) {
  const uint64_t occurrence = seen_[shape]++;
  if (const std::optional<uint64_t> total = plan_.launches(shape)) {
    if (occurrence < plan_.already_profiled(shape)) return false;  // the first run's counters serve
    return is_sampled(occurrence, *total, sample_);
  }
  if (sample_ == 0) return true;
  if (!spread_in_run_) return occurrence < sample_;
  if (!differing_.contains(shape)) return occurrence < sample_;
  if (stopped_.contains(shape) || !in_run_candidate(occurrence, sample_)) return false;
  // An extra launch, at what the shape's launches took before.
  const double cost = most_cost_[shape];
  if (budget_ <= 0 || extras_seconds_ + cost > budget_ * own_seconds) {
    stopped_.insert(shape);
    return false;
  }
  extras_seconds_ += cost;
  return true;
}

void LaunchSampler::observe(const SampleShape& shape, std::vector<double> instruction_counts, double cost_seconds) {
  if (!spread_in_run_ || plan_.launches(shape)) return;
  double& most = most_cost_[shape];
  most = std::max(most, cost_seconds);
  if (instruction_counts.empty()) return;
  const auto first = first_counts_.find(shape);
  if (first == first_counts_.end())
    first_counts_.emplace(shape, std::move(instruction_counts));
  else if (!same_instruction_counts(first->second, instruction_counts))
    differing_.insert(shape);
}

}  // namespace roofcast::profiler
