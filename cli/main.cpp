#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands/commands.hpp"
#include "unknown_command.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"roofcast: predict GPU kernel runtimes on GPUs they never ran on"};
  app.set_version_flag("--version", roofcast::version_text(), "Print the version and exit");
  app.require_subcommand(1);
  app.footer(roofcast::kExitStatusHelp);  // before the subcommands: each inherits it
  roofcast::add_predict_command(app);
  roofcast::add_explain_command(app);
  roofcast::add_devices_command(app);
  roofcast::add_rank_command(app);
  roofcast::add_split_command(app);
  roofcast::add_validate_command(app);
  roofcast::add_profile_command(app);
  roofcast::add_import_command(app);
  roofcast::add_merge_command(app);
  roofcast::add_plot_command(app);
  roofcast::add_report_command(app);
  roofcast::add_bench_command(app);
  roofcast::add_tune_command(app);
  if (const auto unknown = roofcast::unknown_command(app, argc, argv)) {
    std::cerr << "roofcast: " << roofcast::printable(*unknown) << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; a usage error (an unknown option, a value outside what the
    // option's message states) exits 2, bad input 1.
    return app.exit(error) == 0 ? 0 : 2;
  } catch (const roofcast::UsageError& error) {
    std::cerr << "roofcast: " << roofcast::printable(error.what()) << "\n";
    return 2;
  } catch (const roofcast::InputError& error) {
    // Messages quote names from input files: shown printable, never as raw control characters.
    std::cerr << "roofcast: " << roofcast::printable(error.what()) << "\n";
    return 1;
  } catch (const std::filesystem::filesystem_error& error) {
    // A path the user gave that cannot be made or read (a file where a folder is needed...).
    std::cerr << "roofcast: " << roofcast::printable(error.path1().string()) << ": "
              << roofcast::printable(error.code().message()) << "\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "roofcast: internal error: " << roofcast::printable(error.what()) << "\n";
    return 3;
  }
  return 0;
}
