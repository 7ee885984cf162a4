#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/model/ablation.hpp"

namespace roofcast {

// `roofcast validate --ablation`: each model variant's accuracy side by side, per device and
// over all devices (median APE and share within 25 %), as text, markdown and JSON.
std::string ablation_table_text(const std::vector<AblationRow>& rows);
std::string ablation_markdown(const std::vector<AblationRow>& rows);
nlohmann::json ablation_json(const std::vector<AblationRow>& rows);

}  // namespace roofcast
