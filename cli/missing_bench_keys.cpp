#include "missing_bench_keys.hpp"

#include <iostream>
#include <algorithm>

#include <fmt/format.h>

#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/bench_keys.hpp"

namespace roofcast {

std::vector<std::string> missing_bench_key_notes(const std::vector<DeviceProfile>& devices, const std::string& model) {
  if (model == "thesis") return {};
  std::vector<std::string> notes;                      // in the devices' order
  std::vector<std::vector<std::string>> names_of_note;  // the devices each note is about
  for (const auto& device : devices) {
    const std::string note = missing_bench_keys_note(device);
    if (note.empty()) continue;
    size_t i = 0;
    while (i < notes.size() && notes[i] != note) ++i;
    if (i == notes.size()) {
      notes.push_back(note);
      names_of_note.emplace_back();
    }
    auto& names = names_of_note[i];
    if (std::find(names.begin(), names.end(), device.name) == names.end()) names.push_back(device.name);
  }
  std::vector<std::string> lines;
  for (size_t i = 0; i < notes.size(); ++i) lines.push_back(fmt::format("{}: {}", fmt::join(names_of_note[i], ", "), notes[i]));
  return lines;
}

void warn_missing_bench_keys(const std::vector<DeviceProfile>& devices, const std::string& model) {
  for (const auto& line : missing_bench_key_notes(devices, model))
    std::cerr << "roofcast: warning: " << printable(line) << "\n";
}

}  // namespace roofcast
