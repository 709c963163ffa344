#pragma once
// The workload's module graph (models/workload/module_graph.hpp): from each written-out module's
// "after", or from the DependencyGraph file that /workload/modules_from names beside its report.
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/workload.hpp"
#include "models/workload/fasttimer_report.hpp"

namespace sonicsim {

// Sets w.graph where any of the modules (read from `nodes`, /workload/modules/i) has "after".
// An unknown or ambiguous name, a module after itself and a cycle are errors at the "after" concerned.
void read_module_after(const std::vector<JsonNode>& nodes, Workload& w);

// /workload/modules_from/graph: the DependencyGraph file's dependencies between the report's modules
// (`module_of`: per report module, the index in `modules` of the step or offloaded module it went
// to) as dependencies between `modules`. A module waits for the modules it reaches through nodes
// the report does not time.
ModuleGraph read_report_graph(const JsonNode& graph, const FastTimerReport& report, const std::vector<int>& module_of,
                              const std::vector<Module>& modules);

}  // namespace sonicsim
