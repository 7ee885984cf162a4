#pragma once

#include <CLI/CLI.hpp>

namespace roofcast {

// Each subcommand of `roofcast` adds itself to the application here; its work runs
// in the callback it registers. Bad input is thrown as InputError.
void add_predict_command(CLI::App& app);
void add_explain_command(CLI::App& app);
void add_devices_command(CLI::App& app);
void add_rank_command(CLI::App& app);
void add_split_command(CLI::App& app);
void add_validate_command(CLI::App& app);
void add_profile_command(CLI::App& app);
void add_import_command(CLI::App& app);
void add_merge_command(CLI::App& app);
void add_plot_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_tune_command(CLI::App& app);

}  // namespace roofcast
