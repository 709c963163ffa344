#include "models/scenario/reader/costs_reader.hpp"

#include "models/scenario/device_naming.hpp"

namespace sonicsim {

Costs read_costs(const JsonNode& node) {
  node.allow_only({"currency", "cpu_core_hour", "device_hour", "gpu_hour", "target_events_per_hour"});
  Costs costs;
  costs.currency = node.at("currency").string();
  costs.cpu_core_hour = node.at("cpu_core_hour").number_at_least(0);
  costs.gpu_hour = either_name(node, "device_hour", "gpu_hour", true)->number_at_least(0);
  if (auto target = node.find("target_events_per_hour")) costs.target_events_per_hour = target->number_positive();
  return costs;
}

}  // namespace sonicsim
