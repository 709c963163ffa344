#pragma once
// A summary as a human-readable table for the terminal.
#include <cstddef>
#include <string>

#include "analysis/summary/summary.hpp"

namespace sonicsim {

// `min_batch_events`: the smallest batch the steady-state interval of the per-event time accepts
// (steady_estimates.hpp), which the text names when a run had too few events for one; summary.json
// does not hold it.
std::string format_summary(const Summary& summary, std::size_t min_batch_events);

}  // namespace sonicsim
