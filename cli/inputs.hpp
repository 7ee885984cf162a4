#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// --model of every command that predicts: the same names and the same default (pipes) everywhere,
// and --ablate TERM (repeatable), which makes `model` "pipes without TERM, ..." (make_predictor).
void add_model_option(CLI::App& command, std::string& model);
// --ablate TERM alone (repeatable), for a command of the pipes model only (tune): the names of
// pipes_term_names(), for pipes_terms_without().
void add_ablate_option(CLI::App& command, std::vector<std::string>& terms_off);
// --format of a command that prints results, with the formats it offers (the first is the default).
void add_format_option(CLI::App& command, std::string& format, const std::vector<std::string>& formats);

// The transform of an option that takes a whole number from `min` to `max` (each at most 1e15):
// digits, or a number such as 1e6 whose value is whole; no sign, fraction or hexadecimal. The
// option then receives the digits, so an integer option reads 1e6 too
// (`->transform(whole_number(1, 255))`). Its error says exactly what it checks:
// `--top: expected a whole number from 1 to 1000000, found "1.5"`.
CLI::Validator whole_number(double min, double max);

// A device given on the command line (`option`): a device-profile file (its id: the file's name
// without .json), or a device `roofcast devices` lists, by id, name or short name (find_device:
// "h100-sxm", "NVIDIA H100 80GB HBM3", "H100", "h200-mps25").
DeviceProfile load_device(const std::string& name_or_file, const std::string& option = "--device");
// A kernel profile given on the command line: a file, or a bundled profile's id.
KernelProfile load_profile(const std::string& name_or_file);

// Which devices a command uses when none is named.
enum class DefaultDevices {
  current,             // every current device `roofcast devices` lists
  costing_everything,  // those of them whose profiles also cost copies (what rank adds up): GPUs measured by
                       // `roofcast bench`, not the thesis' published figures; every current one if none does
  bundled,             // the six thesis GPUs compiled into roofcast (the charts of the thesis' figures)
};
// The devices of --device (repeatable) and --all-devices (every current device); the default
// ones when neither is given. Two devices of one id (two files of one name) get the paths given.
std::vector<DeviceProfile> load_devices(const std::vector<std::string>& names_or_files, bool all_devices,
                                        DefaultDevices defaults = DefaultDevices::current);

// The devices with names told apart for charts and file names: a name that two of them share
// gets the id beside it ("NVIDIA H100 80GB HBM3 [h100-sxm]").
std::vector<DeviceProfile> with_distinct_names(std::vector<DeviceProfile> devices);

// The help line of --device for a command that takes several.
std::string devices_option_help(const std::string& what, DefaultDevices defaults = DefaultDevices::current);
// The help line of --kernel (find_kernel: what Nsight Compute's -k takes).
inline constexpr const char* kKernelOptionHelp =
    "Kernel: its name, mangled name, base name (stream_triad), a part of its name, or regex:EXPR, as ncu -k "
    "takes it (optional when the profile has one kernel)";
// The help line of --all-devices.
inline constexpr const char* kAllDevicesHelp = "Every current device `roofcast devices` lists";

}  // namespace roofcast
