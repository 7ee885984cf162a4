#include <algorithm>
#include <condition_variable>
#include <exception>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/output/prediction_output.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/device_name.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

namespace {

struct PredictOptions {
  std::string profile;
  std::vector<std::string> devices;
  bool all_devices = false;
  bool utilization_correction = false;
  std::string reference_device;
  std::string format;
  std::string model;
};

DeviceProfile reference_device_for(const KernelProfile& profile, const PredictOptions& options,
                                   const std::vector<DeviceProfile>& devices) {
  if (!options.reference_device.empty()) return load_device(options.reference_device);
  if (profile.reference_device.empty())
    throw InputError(fmt::format("{}: reference_device: missing, needed by --utilization-correction "
                                 "(or give --reference-device)",
                                 options.profile));
  for (const auto& device : devices) {
    if (same_device_name(device.name, profile.reference_device)) return device;
  }
  try {
    return load_device(profile.reference_device);
  } catch (const InputError&) {
    throw InputError(fmt::format("{}: reference_device: \"{}\" is not a bundled device; give its profile "
                                 "with --reference-device for --utilization-correction",
                                 options.profile, profile.reference_device));
  }
}

// The predictions and rows of one range of kernels, made on a worker thread.
struct KernelRange {
  std::unique_ptr<PredictionRows> rows;
  std::vector<TotalsEntry> totals;  // kernel-major, as predicted
  std::exception_ptr error;
  bool done = false;
};

// Predicts and formats ranges of kernels on every core; this thread writes their rows and adds
// up their totals in the kernels' order, so that the output and the totals (summed in that
// order) are those of one thread. The first error in that order is thrown, as one thread
// would have, after the rows before it were written. Only a few ranges are held at a time.
std::vector<DeviceTotal> predict_in_parallel(const Predictor& predictor, const KernelProfile& profile,
                                             const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                                             PredictionPrinter& printer) {
  constexpr size_t kKernelsPerRange = 32;  // a range's text (JSON: ~600 KB) stays in the caches
  const size_t kernels = profile.kernels.size();
  const size_t range_count = (kernels + kKernelsPerRange - 1) / kKernelsPerRange;
  const size_t threads = std::min<size_t>(range_count, std::max(1u, std::thread::hardware_concurrency()));
  const size_t ahead = 4 * std::max<size_t>(threads, 1);  // ranges made before they are written

  const auto prepared = predictor.prepare(devices);  // each device's rates, once
  std::vector<KernelRange> ranges(range_count);
  std::mutex mutex;
  std::condition_variable changed;
  size_t next = 0, written = 0;
  bool stop = false;
  auto work = [&] {
    for (;;) {
      size_t r = 0;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return stop || next >= range_count || next < written + ahead; });
        if (stop || next >= range_count) return;
        r = next++;
      }
      KernelRange range;
      try {
        range.rows = printer.rows();
        range.totals.reserve(kKernelsPerRange * devices.size());
        const size_t first = r * kKernelsPerRange, last = std::min(kernels, first + kKernelsPerRange);
        predict_kernels(
            predictor, profile, first, last, devices, reference,
            [&](KernelPrediction&& p) {
              range.totals.push_back(TotalsEntry::of(p));
              range.rows->add(p);
            },
            prepared.get());
      } catch (...) {
        range.error = std::current_exception();
      }
      range.done = true;
      {
        const std::lock_guard<std::mutex> lock(mutex);
        ranges[r] = std::move(range);
      }
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(work);
  auto stop_workers = [&] {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    for (auto& thread : pool) thread.join();
  };

  ProfileTotals totals(devices, reference != nullptr);
  try {
    for (size_t r = 0; r < range_count; ++r) {
      KernelRange range;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return ranges[r].done; });
        range = std::move(ranges[r]);
      }
      if (range.error) std::rethrow_exception(range.error);
      for (size_t i = 0; i < range.totals.size(); ++i) totals.add(i % devices.size(), range.totals[i]);
      printer.write(std::move(range.rows));
      {
        const std::lock_guard<std::mutex> lock(mutex);
        written = r + 1;
      }
      changed.notify_all();
    }
  } catch (...) {
    stop_workers();
    throw;
  }
  stop_workers();
  return std::move(totals).finish();
}

// Predictions go to the printer as they are made: a million of them (100,000 kernels x 10
// devices) are never held at once.
void run_predict(const PredictOptions& options) {
  const std::shared_ptr<const Predictor> predictor = make_predictor(options.model);
  const KernelProfile profile = load_profile(options.profile);
  const std::vector<DeviceProfile> devices = load_devices(options.devices, options.all_devices);
  std::unique_ptr<DeviceProfile> reference;
  if (options.utilization_correction)
    reference = std::make_unique<DeviceProfile>(reference_device_for(profile, options, devices));

  // JSON: in each prediction's notes.
  if (options.format != "json") warn_missing_bench_keys(devices, options.model);
  if (options.format == "table" || options.format == "markdown")
    std::cout << fmt::format("Profile {} ({} kernels, reference device {}), model: {}\n\n", printable(options.profile),
                             profile.kernels.size(),
                             profile.reference_device.empty() ? "unknown" : printable(profile.reference_device),
                             options.model);
  const auto printer =
      prediction_printer(options.format, std::cout, printable(options.profile), options.model, reference != nullptr);
  printer->finish(predict_in_parallel(*predictor, profile, devices, reference.get(), *printer));
}

}  // namespace

void add_predict_command(CLI::App& app) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App* command = app.add_subcommand("predict", "Predict kernel runtimes on target devices");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--device", options->devices,
                      "Target device: a bundled device's name or a device-profile file (repeatable; "
                      "default: every bundled device)");
  command->add_flag("--all-devices", options->all_devices, "Predict on every bundled device");
  command->add_flag("--utilization-correction", options->utilization_correction,
                    "Scale predictions by measured/predicted time on the reference device (thesis eq. 5.13; "
                    "with --model pipes, the model's own calibration, applied only where the target has the reference's "
                    "SM count and limiter: not on MPS partitions)");
  command->add_option("--reference-device", options->reference_device,
                      "Device profile of the profile's reference device, for --utilization-correction "
                      "(default: the bundled device the profile names)");
  add_format_option(*command, options->format, {"table", "csv", "json", "markdown"});
  add_model_option(*command, options->model);
  command->callback([options] { run_predict(*options); });
}

}  // namespace roofcast
