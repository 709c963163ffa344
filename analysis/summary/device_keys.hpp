#pragma once
// The one place where output keys and column names take the scenario's word for its accelerators:
// in a pattern, "{d}" becomes DeviceWords::key ("gpu" or "device") and "{ds}" DeviceWords::plural
// ("gpus" or "devices"). summary.json's field list and sweep.csv's columns are written as patterns.
#include <string>
#include <string_view>

#include "models/scenario/device_naming.hpp"

namespace sonicsim {

std::string device_key(std::string_view pattern, DeviceNaming naming);

}  // namespace sonicsim
