#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"

namespace roofcast {

// A device that --device takes by name: a bundled device or a device profile of the data folders.
struct CatalogDevice {
  std::string source;        // "bundled", or the device-profile file
  std::string measured_utc;  // when `roofcast bench` measured it (provenance.date_utc); "" for published figures
  // The latest profile of its device name (same_device_name): false when another profile of that
  // name was measured later. Profiles of one name measured at one time are all current.
  bool current = true;
  DeviceProfile device;  // device.id is what --device takes
};

// The bundled devices, then the device profiles of the data folders (device_files()), whatever
// files are there: a file that does not read is left out and named through `warn`.
std::vector<CatalogDevice> device_catalog(const std::function<void(const std::string&)>& warn = nullptr);

// The devices a command uses when none is named: every current device of the catalog.
std::vector<DeviceProfile> current_devices();

// The device a person names (not a file), tried in this order:
//   1. its id ("h100-sxm", "thesis-gtx-660");
//   2. its full name ("NVIDIA H100 80GB HBM3", "GTX-1060 6GB");
//   3. a short form of the name (device_name_matches: "H100", "gtx660", "h200-mps25", "H200 MPS 25%").
// Several devices of one name or short form: the current one. Still several, or none: InputError
// naming `option` and the candidates with their ids (for none: the closest, then every current device).
DeviceProfile find_device(std::string_view name, std::string_view option = "--device");

}  // namespace roofcast
