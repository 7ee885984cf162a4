#include "unknown_command.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "roofcast/formats/closest_name.hpp"

namespace roofcast {

std::optional<std::string> unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* current = &app;
  std::string path = app.get_name().empty() ? "roofcast" : app.get_name();
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    const auto subcommands = current->get_subcommands([](CLI::App*) { return true; });
    // A command without subcommands reads the rest itself; options come before a subcommand
    // only as flags (--help, --version), which CLI11 checks.
    if (subcommands.empty() || word == "--") return std::nullopt;
    if (word.starts_with("-")) continue;
    std::vector<std::string> names;
    CLI::App* next = nullptr;
    for (CLI::App* sub : subcommands) {
      names.push_back(sub->get_name());
      if (sub->check_name(word)) next = sub;
    }
    if (!next) {
      const auto closest = closest_name(word, names);
      return fmt::format("unknown command \"{}\"{}{} (`{} --help` lists the commands)", word,
                         current == &app ? "" : fmt::format(" of `{}`", path),
                         closest ? fmt::format("; did you mean `{} {}`?", path, *closest) : "", path);
    }
    current = next;
    path += " " + next->get_name();
  }
  return std::nullopt;
}

}  // namespace roofcast
