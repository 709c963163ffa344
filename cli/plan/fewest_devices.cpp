#include "cli/plan/fewest_devices.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include "analysis/run_soundness.hpp"
#include "cli/plan/job_cap.hpp"
#include "cli/plan/plan_report.hpp"
#include "models/closed_form/analytic.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {
namespace {

// The scenario with `servers` servers in `group`: what the closed form reads.
AnalyticModel closed_form_with(const Scenario& scenario, int group, int servers) {
  Scenario copy = scenario;
  copy.platform.servers[static_cast<std::size_t>(group)].count = servers;
  return analytic_model(copy);
}

bool closed_form_within(const Scenario& scenario, int group, int servers, double jobs, double tolerance) {
  const AnalyticModel m = closed_form_with(scenario, group, servers);
  return analytic_prediction(m, jobs).per_event_s <= (1 + tolerance) * m.ideal_s();
}

// The fewest servers the closed form keeps within the tolerance for `jobs` concurrent jobs, up to
// `most` (more devices only shorten its per-event time); `most` + 1 where none does.
int closed_form_servers(const Scenario& scenario, int group, double jobs, double tolerance, int least, int most) {
  if (!closed_form_within(scenario, group, most, jobs, tolerance)) return most + 1;
  int lo = least - 1, hi = most;  // lo past the tolerance (or below the least), hi within
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (closed_form_within(scenario, group, mid, jobs, tolerance) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

int plan_fewest_devices(const PlanContext& plan, int group, int max_servers) {
  const Scenario& scenario = plan.scenario;
  const ServerGroup& g = scenario.platform.servers[static_cast<std::size_t>(group)];
  const std::string base = "/platform/servers/" + std::to_string(group);
  const int per_server = g.gpus_per_server;
  const int least = g.autoscaling ? std::max(1, g.autoscaling->min_replicas) : 1;
  const char* unit = g.autoscaling ? "replicas" : "servers";
  const DeviceWords& words = plan.words;
  const auto describe = [&](int servers) {
    return printf_string("%d %s (%d %s%s)", servers, servers == 1 ? (g.autoscaling ? "replica" : "server") : unit,
                         servers * per_server, words.label, servers * per_server == 1 ? "" : "s");
  };
  const auto padded = [&](int servers) { return printf_string("%4s", "") + describe(servers); };
  const auto settings = [&](int servers) -> Overrides {
    if (!g.autoscaling) return {{base + "/count", std::to_string(servers)}};
    return {{base + "/count", std::to_string(std::max(g.count, servers))},
            {base + "/autoscaling/max_replicas", std::to_string(servers)}};
  };

  const std::optional<Summary> one_job = one_job_alone(plan);
  if (!one_job) return 1;
  const Summary& alone = *one_job;
  const KneeCriteria criteria = plan.criteria(alone);
  // The concurrent jobs the farm must serve: a static farm's, or what the batch system keeps running.
  double jobs = scenario.workload.jobs;
  std::optional<Summary> given;  // the workload as given, which a probe of its own count reuses
  if (scenario.workload.submit) {
    given = plan.probes.run({}, "the workload as given");
    jobs = std::max(1.0, mean_running_jobs(*given, scenario, scenario.workload.jobs));
    std::cout << probe_line("as given, " + describe(g.count), *given, criteria, words)
              << printf_string("    keeps %.1f jobs running on average\n", jobs);
  }
  const int bound = static_cast<int>(std::min<std::int64_t>(limits::kMaxServersPerGroup, 1'000'000));
  const int closed = closed_form_servers(scenario, group, jobs, plan.tolerance, least, bound);
  const AnalyticModel at_closed = closed_form_with(scenario, group, std::min(closed, bound));
  std::cout << printf_string(
      "  closed form: %.1f jobs need %.2f %ss (jobs x %.4g s of %s per event / %.4g s per event): "
      "%s; the search starts there\n",
      jobs, jobs * at_closed.gpu_s / at_closed.ideal_s(), words.label, at_closed.gpu_s, words.label,
      at_closed.ideal_s(), closed > bound ? "no count keeps within the tolerance" : describe(closed).c_str());
  if (max_servers <= 0) max_servers = std::min(bound, std::max({2 * std::min(closed, bound), closed + 4, g.count}));
  max_servers = std::max(max_servers, least);

  // The search goes over x = max_servers + 1 - servers: load per device grows with x, as jobs do.
  const auto servers_of = [&](int x) { return max_servers + 1 - x; };
  const auto probe = [&](int x) {
    const bool as_given =
        given && (g.autoscaling ? servers_of(x) == g.autoscaling->hpa.max_replicas && servers_of(x) <= g.count
                                : servers_of(x) == g.count);
    Summary s = as_given ? *given : plan.probes.run(settings(servers_of(x)), describe(servers_of(x)));
    std::cout << probe_line(padded(servers_of(x)), s, criteria, words);
    return s;
  };
  const Summary most = probe(1);
  if (const auto unsound = unsound_reasons(most); !unsound.empty()) {
    std::cout << "\nno answer: even " << describe(max_servers) << " give no sound run (" << joined_reasons(unsound)
              << "); more " << unit
              << " cannot mend that: see the notes above and the run's own summary (sonicsim run)\n";
    return 1;
  }
  if (!criteria.within(most)) {
    std::cout << "\neven " << describe(max_servers) << " leave the per-event time past " << 100 * plan.tolerance
              << "% of one job alone: " << saturated_resource(most, alone, criteria)
              << " (try more with --max-servers, or look at what saturates)\n";
    return 1;
  }
  const int start = std::clamp(max_servers + 1 - closed, 1, max_servers + 1 - least);
  const double slope = closed > least && closed <= bound
                           ? analytic_prediction(closed_form_with(scenario, group, closed - 1), jobs).per_event_s -
                                 analytic_prediction(at_closed, jobs).per_event_s
                           : 0;
  const KneeSearch knee = search_knee(start, max_servers + 1 - least, criteria, most, slope, probe);
  const int fewest = servers_of(knee.lo);
  if (plan.answer)
    *plan.answer = {std::string("fewest ") + unit + " within tolerance", unit, static_cast<double>(fewest), false};
  std::cout << '\n'
            << printf_string("fewest %s within tolerance: %s, %.3f s per event\n", unit, describe(fewest).c_str(),
                             plan_event_time(knee.at_lo));
  if (knee.hi > 0)
    std::cout << "one fewer, " << describe(servers_of(knee.hi)) << ": "
              << saturated_resource(knee.at_hi, alone, criteria) << '\n';
  else
    std::cout << "every count down to " << describe(least) << " stays within the tolerance\n";
  std::cout << printf_string("closed form: %s (%s)\n", closed > bound ? "none" : describe(closed).c_str(),
                             closed == fewest ? "the same" : printf_string("%+d", closed - fewest).c_str());
  if (const auto& usage = knee.at_lo.usage; usage && usage->cost_per_event)
    std::cout << printf_string("cost: %.4g %s per event\n", *usage->cost_per_event, usage->currency->c_str());
  else if (scenario.costs)
    print_costs(*scenario.costs, static_cast<int>(std::lround(jobs)), fewest * per_server, plan_event_time(knee.at_lo),
                0, words.label);
  return 0;
}

}  // namespace sonicsim::cli
