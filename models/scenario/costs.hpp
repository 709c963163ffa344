#pragma once
// The scenario's /costs: prices for `plan`'s cost per event, in one currency of the user's choice.
#include <optional>
#include <string>

namespace sonicsim {

struct Costs {
  std::string currency;                          // a label, e.g. "USD"
  double cpu_core_hour = 0;                      // price of one worker core for one hour
  double gpu_hour = 0;                           // price of one GPU (with its share of server) for one hour
  std::optional<double> target_events_per_hour;  // throughput the cheapest configuration must reach
};

}  // namespace sonicsim
