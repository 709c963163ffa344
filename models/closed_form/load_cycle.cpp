#include "models/closed_form/load_cycle.hpp"

#include <algorithm>
#include <cmath>

#include "models/closed_form/analytic.hpp"

namespace sonicsim {

double autoscaler_settle_s(const AutoscalingSpec& a) {
  const double decide = a.metric_window_s + a.sync_period_s +
                        std::max(a.hpa.scale_up.stabilization_window_s, a.hpa.scale_down.stabilization_window_s);
  const double up = mean(a.startup) + a.readiness_delay_s + a.readiness_period_s;
  const double down = a.prestop_sleep_s + a.grace_period_s;
  return decide + std::max(up, down);
}

std::optional<LoadCycle> load_cycle(const Scenario& scenario) {
  const Workload& w = scenario.workload;
  if (w.submit)
    // Jobs that run for the whole duration only pile up, wave after wave: no cycle.
    if (const auto* waves = std::get_if<StartWaves>(&*w.submit);
        waves && waves->period_s > 0 && w.jobs > waves->jobs_per_wave && w.events_per_job) {
      const double period = waves->period_s;
      const double count = std::ceil(static_cast<double>(w.jobs) / waves->jobs_per_wave);
      // A job of the first wave lasts at least its events at t_ideal.
      const double longest_job_s = most_events(*w.events_per_job) * analytic_model(scenario).ideal_s();
      return LoadCycle{period, std::ceil(longest_job_s / period) * period, count * period, "the wave period"};
    }
  if (const ServerGroup* g = scenario.autoscaled_group())
    return LoadCycle{autoscaler_settle_s(*g->autoscaling), 0, std::numeric_limits<double>::infinity(),
                     "the autoscaler's settle time"};
  return std::nullopt;
}

}  // namespace sonicsim
