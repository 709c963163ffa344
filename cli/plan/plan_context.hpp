#pragma once
// What every kind of plan works with: the scenario as the user gave it (with their --set), the
// runs it simulates, and the criteria an answer is judged by.
#include "analysis/knee_search.hpp"
#include "cli/plan/plan_probes.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim::cli {

struct PlanContext {
  const Scenario& scenario;
  PlanProbes& probes;
  double tolerance = 0.05;       // the largest rise of the mean per-event time over one job alone
  double link_threshold = 0.9;   // the largest utilisation of a shared link
  DeviceWords words = device_words(DeviceNaming::Gpu);
  int devices = 0;               // over every server group, as the scenario has them

  KneeCriteria criteria(const Summary& alone) const { return {plan_event_time(alone), tolerance, link_threshold}; }
};

}  // namespace sonicsim::cli
