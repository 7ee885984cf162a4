#include "roofcast/model/prediction_stream.hpp"

#include <algorithm>
#include <exception>

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

namespace roofcast {

namespace {

// Kernels predicted together: a range's text (JSON on 10 devices: ~600 KB) stays in the caches.
constexpr size_t kKernelsPerRange = 32;

// One range of kernels on its way through the pipeline.
struct Range {
  size_t index = 0;
  std::unique_ptr<PredictionRows> rows;
  std::vector<TotalsEntry> totals;  // kernel-major, as predicted
  std::exception_ptr error;
};

}  // namespace

std::vector<DeviceTotal> stream_predictions(const Predictor& predictor, const KernelProfile& profile,
                                            const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                                            PredictionSink& sink) {
  const size_t kernels = profile.kernels.size();
  const size_t range_count = (kernels + kKernelsPerRange - 1) / kKernelsPerRange;
  // Ranges in the pipeline at once: enough that every core has one while another waits for its
  // turn to be written.
  const size_t in_flight = 4 * static_cast<size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  // One slot per range in flight, used again by range in_flight later: ranges leave the pipeline
  // in order, so that range has left when this one enters. Its rows and buffers are kept.
  std::vector<Range> slots(std::max<size_t>(1, std::min(in_flight, range_count)));
  const auto prepared = predictor.prepare(devices);  // each device's rates, once
  ProfileTotals totals(devices, reference != nullptr);
  size_t next = 0;

  auto take_next_range = [&](tbb::flow_control& control) -> Range* {
    if (next == range_count) {
      control.stop();
      return nullptr;
    }
    Range& range = slots[next % slots.size()];
    if (!range.rows) range.rows = sink.rows();
    range.index = next++;
    return &range;
  };
  // An error is kept with its range, to be thrown in the kernels' order (oneTBB would throw the
  // first in time).
  auto predict_range = [&](Range* range) {
    range->totals.clear();
    range->error = nullptr;
    try {
      const size_t first = range->index * kKernelsPerRange, last = std::min(kernels, first + kKernelsPerRange);
      predict_kernels(
          predictor, profile, first, last, devices, reference,
          [&](KernelPrediction&& p) {
            range->totals.push_back(TotalsEntry::of(p));
            range->rows->add(p);
          },
          prepared.get());
    } catch (...) {
      range->error = std::current_exception();
    }
    return range;
  };
  auto write_range = [&](Range* range) {
    if (range->error) std::rethrow_exception(range->error);
    for (size_t i = 0; i < range->totals.size(); ++i) totals.add(i % devices.size(), range->totals[i]);
    sink.write(*range->rows);
  };
  tbb::parallel_pipeline(in_flight,
                         tbb::make_filter<void, Range*>(tbb::filter_mode::serial_in_order, take_next_range) &
                             tbb::make_filter<Range*, Range*>(tbb::filter_mode::parallel, predict_range) &
                             tbb::make_filter<Range*, void>(tbb::filter_mode::serial_in_order, write_range));
  return std::move(totals).finish();
}

}  // namespace roofcast
