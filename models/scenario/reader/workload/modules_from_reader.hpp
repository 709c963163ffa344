#pragma once
// /workload/modules_from: a workload's modules taken from a CMSSW FastTimerService report
// (models/workload/fasttimer_report.hpp). Each module's thread time per event becomes CPU time,
// grouped into steps as "group" says; the modules named under "offload" become inference modules.
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/workload.hpp"

namespace sonicsim {

// Sets w.modules and w.modules_report from the report that `node` names.
void read_modules_from(const JsonNode& node, const std::vector<ModelSpec>& models, Workload& w);

// Where each of w.modules is written, for checks that need the place: /workload/modules/i, or, for
// modules from a report, /workload/modules_from/offload/LABEL/request for an offloaded module and
// /workload/modules_from for a CPU step.
std::vector<JsonNode> module_nodes(const JsonNode& workload, const Workload& w);

}  // namespace sonicsim
