#pragma once
// Values that several sections of a scenario take: a link, a time distribution, a count of items.
#include "models/io/json/json_reader.hpp"
#include "models/scenario/link.hpp"
#include "models/workload/distribution.hpp"
#include "models/workload/item_count.hpp"

namespace sonicsim {

// {"bandwidth": "10Gbps", "latency": "50us"}.
LinkSpec read_link(const JsonNode& node);

// A duration ("110s", shorthand for a constant) or {"distribution": KIND, ...}.
Distribution read_distribution(const JsonNode& node);

// A positive integer, or a count distribution {"distribution": KIND, ...} (items per event,
// elements per item).
ItemCount read_item_count(const JsonNode& node);

}  // namespace sonicsim
