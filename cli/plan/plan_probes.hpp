#pragma once
// What every kind of plan works with: the scenario as the user gave it (with their --set), the
// runs it simulates (PlanProbes), and the criteria an answer is judged by (PlanContext).
//
// The simulations a plan runs: each a variant of the scenario (overrides on top of the user's), in a
// child process, with the stopping rule at a quarter of the tolerance so that its mean per-event
// time is known well enough to judge against the tolerance, or to its workload's end. It counts the
// runs and the simulated time, shows on a terminal which run is under way, and prints each distinct
// note and warning of the runs' scenarios once (as `run` prints them).
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/knee_search.hpp"
#include "analysis/summary/summary.hpp"
#include "cli/progress_line.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim::cli {

using Overrides = std::vector<std::pair<std::string, std::string>>;

class PlanProbes {
 public:
  // `quiet`: no status line and no notes (a plan run for a point of a design over declared unknowns).
  PlanProbes(std::string scenario_path, Overrides overrides, double tolerance, bool quiet = false);

  // The scenario with `extra` set on top of the user's overrides; `what` names the run ("400 jobs").
  Summary run(const Overrides& extra, const std::string& what);
  // Several at once, one process per core, in order.
  std::vector<Summary> run_all(const std::vector<Overrides>& extras, const std::string& what);

  const std::string& scenario_path() const { return path_; }
  const Overrides& overrides() const { return overrides_; }
  int runs() const { return runs_; }
  double simulated_s() const { return simulated_s_; }

 private:
  std::string path_;
  Overrides overrides_;
  double tolerance_;
  int runs_ = 0;
  double simulated_s_ = 0;
  bool quiet_;
  StatusLine status_;
  std::set<std::string> said_;  // the notes and warnings printed so far
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// A plan's answer as a number, for a design over declared unknowns to take the band of: what it
// is ("largest job count within tolerance"), its value and unit; unset where there is no answer.
struct PlanAnswer {
  std::string what, unit;
  std::optional<double> value;
  bool at_least = false;  // the search stopped at its bound before the knee: a lower bound
};

// The scenario as the user gave it, the runs, and the criteria an answer is judged by.
struct PlanContext {
  const Scenario& scenario;
  PlanProbes& probes;
  double tolerance = 0.05;      // the largest rise of the mean per-event time over one job alone
  double link_threshold = 0.9;  // the largest utilisation of a shared link
  DeviceWords words = device_words(DeviceNaming::Gpu);
  int devices = 0;               // over every server group, as the scenario has them
  PlanAnswer* answer = nullptr;  // where the search puts its answer, if anyone asks

  KneeCriteria criteria(const Summary& alone) const { return {plan_event_time(alone), tolerance, link_threshold}; }
};

}  // namespace sonicsim::cli
