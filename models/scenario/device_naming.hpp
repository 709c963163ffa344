#pragma once
// How a scenario names its servers' accelerators, and so how its outputs name them. A server's
// device may be any accelerator (GPU, FPGA, IPU); scenarios that say "device" get outputs that say
// "device", and scenarios written with the older GPU names keep theirs, byte for byte.
#include <optional>
#include <string>

#include "models/io/json/json_reader.hpp"

namespace sonicsim {

enum class DeviceNaming { Gpu, Device };

struct DeviceWords {
  const char* key;     // JSON keys and CSV columns: "gpu" / "device"
  const char* plural;  // "gpus" / "devices"
  const char* label;   // in a sentence: "GPU" / "device"
  const char* title;   // at the start of a line: "GPU" / "Device"
};

DeviceWords device_words(DeviceNaming naming);

// A key with a general name and its older GPU-only synonym: exactly one of the two, or neither
// when not required.
std::optional<JsonNode> either_name(const JsonNode& node, const char* name, const char* older_name, bool required);

// A --set pointer in the naming `document` uses: a key of the pointer that the document gives by
// its other name (e.g. "device" where the file says "gpu") is written as the document writes it, so
// that the --set replaces the file's value instead of adding the second name, and the outputs keep
// the file's naming. Keys the document does not have, and the rest of the pointer, are unchanged.
std::string pointer_in_document_naming(const nlohmann::json& document, const std::string& pointer);

// The naming a parsed scenario document uses: "device", "devices_per_server",
// "kernel_latency_by_device", "instances_per_device" and costs' "device_hour", or their GPU
// synonyms; one naming throughout, since its outputs follow it. Scenarios that use neither (a
// perf_analyzer scenario names its device with either) are Gpu.
DeviceNaming read_device_naming(const JsonNode& root);

}  // namespace sonicsim
