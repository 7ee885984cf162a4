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

// A device given on the command line: a device-profile file, a bundled device's name, or the id
// or name of a device profile of the data folders (find_named_device: `--device h100-sxm`).
DeviceProfile load_device(const std::string& name_or_file);
// A kernel profile given on the command line: a file, or a bundled profile's id.
KernelProfile load_profile(const std::string& name_or_file);

// The devices of --device (repeatable) and --all-devices; every bundled device when neither is given.
std::vector<DeviceProfile> load_devices(const std::vector<std::string>& names_or_files, bool all_bundled);

}  // namespace roofcast
