#pragma once
// The metric ids validate can report, the keys of its tolerances. A tolerance for an id that no
// comparison can give is a misspelling: it is refused instead of silently doing nothing.
#include <string>
#include <vector>

namespace sonicsim::validation {

// Every fixed id, in the order the comparisons give them.
const std::vector<std::string>& known_metric_ids();

// A fixed id, or a perf_analyzer level's "perf_LOAD_SUFFIX" (LOAD a number, SUFFIX one of
// inferences_per_s, p50, p99 or latency_ with a distribution row: mean, p50, p90, p99, ks, wasserstein).
bool is_known_metric(const std::string& id);

// "event_time_mean, event_time_p50, ..., perf_LOAD_inferences_per_s, ...": for the error message.
std::string known_metric_list();

}  // namespace sonicsim::validation
