#include "cli/plan/workload_as_given.hpp"

#include <iostream>

#include "analysis/run_soundness.hpp"
#include "cli/plan/job_cap.hpp"
#include "cli/plan/plan_report.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {

int plan_workload_as_given(const PlanContext& plan) {
  const Scenario& scenario = plan.scenario;
  const std::optional<Summary> one_job = one_job_alone(plan);
  if (!one_job) return 1;
  const Summary& alone = *one_job;
  const KneeCriteria criteria = plan.criteria(alone);
  const Summary given = plan.probes.run({}, "the workload as given");
  std::cout << probe_line(printf_string("%d jobs as given", scenario.workload.jobs), given, criteria, plan.words)
            << '\n';

  const double event_s = plan_event_time(given);
  const auto half_width = plan_event_time_half_width(given);
  if (const auto unsound = unsound_reasons(given); !unsound.empty()) {
    std::cout << "the workload as given gives no sound run (" << joined_reasons(unsound)
              << "): its per-event time is no answer; see the notes above and the run's own summary (sonicsim run)\n";
    return 1;
  }
  if (plan.answer) *plan.answer = {"per-event time of the workload as given", "s", event_s, false};
  std::cout << printf_string(
      "the workload as given: %.3f s per event%s, %+.1f%% against one job alone: %s the %g%% tolerance\n", event_s,
      half_width ? printf_string(" ± %.3f (95%%)", *half_width).c_str() : "", 100 * (event_s / criteria.baseline_s - 1),
      criteria.within(given) ? "within" : "past", 100 * plan.tolerance);
  std::cout << "  " << describe_measurement(given) << '\n';
  if (given.jobs) {
    const JobsSummary& j = *given.jobs;
    std::cout << printf_string("  queue wait: mean %.1f s, p90 %.1f s, max %.1f s\n", j.queue_wait_s.mean,
                               j.queue_wait_s.p90, j.queue_wait_s.max)
              << printf_string("  jobs running: %.1f on average, %lld at the peak, of %lld worker cores\n",
                               mean_running_jobs(given, scenario, 0), static_cast<long long>(j.peak_running),
                               static_cast<long long>(scenario.total_worker_cores()));
  }
  std::cout << printf_string("  %s utilisation %.2f%s%s\n", plan.words.label, device_utilization(given),
                             given.autoscaling ? printf_string(" of the %s-seconds in service (the pool's mean: %.2f)",
                                                               plan.words.label, given.gpu_utilization)
                                                     .c_str()
                                               : "",
                             given.steady.device_utilization && !given.autoscaling
                                 ? printf_string(" (%.2f ± %.2f at load)", given.steady.device_utilization->mean,
                                                 given.steady.device_utilization->half_width)
                                       .c_str()
                                 : "");
  if (!criteria.within(given)) std::cout << "  what saturates: " << saturated_resource(given, alone, criteria) << '\n';
  std::cout << "to find the largest load within the tolerance, vary what the workload varies: --vary "
               "/workload/submit/jobs_per_wave (waves), --vary /workload/submit/mean_interval (Poisson), or "
               "--vary /workload/jobs; the fewest devices for it: --devices\n";
  const double cpu_s = cpu_only_event_s(plan, criteria.baseline_s);
  if (scenario.costs) {
    if (given.usage && given.usage->cost_per_event)
      std::cout << printf_string("cost: %.4g %s per event\n", *given.usage->cost_per_event,
                                 given.usage->currency->c_str());
    else
      print_costs(*scenario.costs, static_cast<int>(mean_running_jobs(given, scenario, 0) + 0.5), plan.devices, event_s,
                  cpu_s, plan.words.label);
  }
  return 0;
}

}  // namespace sonicsim::cli
