#include "cli/plan/job_cap.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include "cli/plan/knee_report.hpp"
#include "cli/plan/plan_report.hpp"
#include "models/closed_form/analytic.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {
namespace {

// The closed form's knee: the most jobs whose t_SONIC per-event time stays within the tolerance of
// t_ideal (analytic_prediction grows with the job count).
int closed_form_knee(const AnalyticModel& m, double tolerance, int max_jobs) {
  const auto within = [&](int jobs) {
    return analytic_prediction(m, jobs).per_event_s <= (1 + tolerance) * m.ideal_s();
  };
  if (within(max_jobs)) return max_jobs;
  int lo = 1, hi = max_jobs;
  while (hi - lo > 1) (within(lo + (hi - lo) / 2) ? lo : hi) = lo + (hi - lo) / 2;
  return lo;
}

}  // namespace

double mean_running_jobs(const Summary& s, const Scenario& scenario, int static_jobs) {
  // Occupancy counts the cores jobs hold: `threads` per job.
  if (s.jobs)
    return s.jobs->slot_occupancy * static_cast<double>(scenario.total_worker_cores()) / scenario.workload.threads;
  return static_jobs;
}

int plan_job_cap(const PlanContext& plan, const LoadAxis& axis, int max_value) {
  const Scenario& scenario = plan.scenario;
  const bool static_jobs = !scenario.workload.submit && axis.pointer == "/workload/jobs";
  const int cores = static_cast<int>(std::min<std::int64_t>(scenario.job_slots(), 2'000'000'000));
  const DeviceWords& words = plan.words;
  const std::optional<Summary> one_job = one_job_alone(plan);
  if (!one_job) return 1;
  const Summary& alone = *one_job;
  const KneeCriteria criteria = plan.criteria(alone);

  // Jobs per unit of the axis: exactly one for a static farm's jobs; otherwise what the workload as
  // given keeps running, taken as proportional to its load.
  double jobs_per_unit = 1;
  std::optional<Summary> given;  // the workload as given, which a probe of its own value reuses
  if (!static_jobs) {
    given = plan.probes.run({}, axis.describe(axis.given) + " (as given)");
    const double running = std::max(1.0, mean_running_jobs(*given, scenario, scenario.workload.jobs));
    jobs_per_unit = running / axis.given;
    std::cout << probe_line(axis.describe(axis.given) + " (as given)", *given, criteria, words)
              << printf_string("    keeps %.1f jobs running on average: the search takes %.3g per unit\n", running,
                               jobs_per_unit);
  }
  // How far the search may go, and what stops it there: --max (--max-jobs), else the worker cores
  // (no more jobs run at once) and the jobs the workload has (a wave holds at most all of them).
  std::string limit = static_jobs ? "--max-jobs" : "--max";
  if (static_jobs && max_value >= cores) {
    limit = printf_string("every worker core (%d)", cores);
  } else if (!static_jobs && max_value <= 0) {
    // The cores bound the jobs running at once (at the jobs per unit the workload as given keeps
    // running); a wave holds at most all of the workload's jobs, and a rate keeps at most all of them
    // running.
    const std::int64_t jobs = scenario.workload.jobs;
    const auto units_for = [&](double running) {
      return std::max(1, static_cast<int>(std::min(2e9, std::ceil(running / jobs_per_unit))));
    };
    const int by_cores = units_for(cores);
    const bool wave_size = axis.pointer == "/workload/submit/jobs_per_wave";
    const int by_jobs = axis.pointer == "/workload/jobs" ? by_cores
                        : wave_size                      ? static_cast<int>(std::min<std::int64_t>(jobs, 2'000'000'000))
                                                         : units_for(static_cast<double>(jobs));
    max_value = std::min(by_cores, by_jobs);
    if (by_jobs < by_cores)
      limit = wave_size ? printf_string("the workload's %lld jobs (a wave holds at most all of them)",
                                        static_cast<long long>(jobs))
                        : printf_string(
                              "the workload's %lld jobs (at about %.3g jobs running per unit, %s would keep "
                              "all of them running)",
                              static_cast<long long>(jobs), jobs_per_unit, axis.describe(max_value).c_str());
    else
      limit = printf_string("the %d worker cores (at about %.3g jobs running per unit, %s would keep every core busy)",
                            cores, jobs_per_unit, axis.describe(max_value).c_str());
  }
  const AnalyticModel closed = analytic_model(scenario);
  const int knee_jobs =
      closed_form_knee(closed, plan.tolerance, static_cast<int>(std::min<double>(cores, max_value * jobs_per_unit)));
  const int start = std::clamp(static_cast<int>(std::floor(knee_jobs / jobs_per_unit)), 1, max_value);
  std::cout << (static_jobs
                    ? printf_string("  closed form: within the tolerance up to %d jobs; the search starts there\n",
                                    start)
                    : printf_string("  closed form: within the tolerance up to %d jobs, %s; the search starts there\n",
                                    knee_jobs, axis.describe(start).c_str()));
  const auto probe = [&](int x) {
    Summary s = given && x == axis.given && !axis.per_hour
                    ? *given
                    : plan.probes.run({{axis.pointer, axis.value_text(x)}}, axis.describe(x));
    std::cout << probe_line(axis.describe(x), s, criteria, words);
    return s;
  };
  const double slope =
      (analytic_prediction(closed, knee_jobs + 1.0).per_event_s - analytic_prediction(closed, knee_jobs).per_event_s) *
      jobs_per_unit;
  const KneeSearch knee = search_knee(start, max_value, criteria, alone, slope, probe);
  const int lo = knee.lo, hi = knee.hi;
  const double lo_jobs = static_jobs ? lo : mean_running_jobs(knee.at_lo, scenario, scenario.workload.jobs);

  if (plan.answer) {
    *plan.answer = {
        static_jobs ? "largest job count within tolerance" : "largest load within tolerance",
        static_jobs ? "jobs" : axis.pointer.substr(axis.pointer.rfind('/') + 1) + (axis.per_hour ? " per hour" : ""),
        static_cast<double>(lo), hi == 0};
  }
  std::cout << '\n';
  if (hi == 0) {
    std::cout << printf_string(
        "no knee up to %s, where %s stops the search: the per-event time stays within %g%% of "
        "one job alone\n",
        static_jobs ? printf_string("%d jobs", max_value).c_str() : axis.describe(max_value).c_str(), limit.c_str(),
        100 * plan.tolerance);
  } else {
    const std::string resource = saturated_resource(knee.at_hi, alone, criteria);
    std::cout << (static_jobs
                      ? printf_string("largest job count within tolerance: %d (%.3f s per event)\n", lo,
                                      plan_event_time(knee.at_lo))
                      : printf_string(
                            "largest load within tolerance: %s (%.3f s per event, %.1f jobs running on average)\n",
                            axis.describe(lo).c_str(), plan_event_time(knee.at_lo), lo_jobs))
              << "saturates first at " << (static_jobs ? std::to_string(hi) + " jobs" : axis.describe(hi)) << ": "
              << resource << '\n';
    if (resource.rfind("no sound run", 0) == 0)
      std::cout << printf_string("concurrent-job cap: %.0f jobs: past it no run is sound (see above)\n", lo_jobs);
    else if (resource.rfind(words.label, 0) == 0 && plan.devices > 0)
      std::cout << printf_string("optimal CPU:%s ratio: %.1f jobs per %s (%.0f jobs on %d %s%s)\n", words.label,
                                 lo_jobs / plan.devices, words.label, lo_jobs, plan.devices, words.label,
                                 plan.devices == 1 ? "" : "s");
    else
      std::cout << printf_string("concurrent-job cap: %.0f jobs, set by the ", lo_jobs) << resource << '\n';
    print_knee_interval(
        plan, knee, criteria,
        [&](int x) {
          return Overrides{{axis.pointer, axis.value_text(x)}};
        },
        [&](int x) { return static_jobs ? printf_string("%d jobs", x) : axis.describe(x); });
  }
  std::cout << "closed form (t_SONIC): " << describe_saturation(closed) << '\n';
  const double cpu_s = cpu_only_event_s(plan, criteria.baseline_s);
  if (scenario.costs)
    print_costs(*scenario.costs, static_cast<int>(std::lround(lo_jobs)), plan.devices, plan_event_time(knee.at_lo),
                cpu_s, words.label);
  return 0;
}

}  // namespace sonicsim::cli
