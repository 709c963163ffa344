#include "cli/plan/plan_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <nlohmann/json.hpp>

#include "analysis/knee_search.hpp"
#include "cli/command_line.hpp"
#include "cli/overrides.hpp"
#include "cli/plan/plan_autoscaling.hpp"
#include "cli/processes/simulated_summary.hpp"
#include "cli/progress_line.hpp"
#include "models/closed_form/analytic.hpp"
#include "models/io/text_format.hpp"
#include "models/io/units.hpp"
#include "models/scenario/reader/scenario_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
using nlohmann::json;

namespace {

using Overrides = std::vector<std::pair<std::string, std::string>>;


double mean_event_time(const Summary& summary) { return plan_event_time(summary); }

// The closed form's knee: the most jobs whose t_SONIC per-event time stays within the tolerance of
// t_ideal (analytic_prediction grows with the job count).
int closed_form_knee(const AnalyticModel& m, double tolerance, int max_jobs) {
  const auto within = [&](int jobs) { return analytic_prediction(m, jobs).per_event_s <= (1 + tolerance) * m.ideal_s(); };
  if (within(max_jobs)) return max_jobs;
  int lo = 1, hi = max_jobs;
  while (hi - lo > 1) (within(lo + (hi - lo) / 2) ? lo : hi) = lo + (hi - lo) / 2;
  return lo;
}

// What gives out first at a job count past the knee, judged by what grew against one job alone:
// a link busier than the threshold or than the devices, the devices, the frontends' handler threads,
// the batcher queue with the devices not busy, or else the network's latency and sharing. (The client CPU
// cannot: every job has its own core, and the search stops at the worker cores.)
std::string saturated_resource(const Summary& s, const Summary& alone, const KneeCriteria& c) {
  const BusiestLink link = busiest_link(s);
  const double gpu = s.gpu_utilization;
  const char* device = device_words(s.device_naming).label;
  if (link.utilization > c.link_threshold || link.utilization > gpu)
    return "link \"" + link.name + "\"" + printf_string(" (utilisation %.2f, %s %.2f)", link.utilization, device, gpu);
  const auto grown = [&](double EventBreakdown::*part) { return s.breakdown.*part - alone.breakdown.*part; };
  const double queue = grown(&EventBreakdown::queue_s), frontend = grown(&EventBreakdown::frontend_s),
               network = grown(&EventBreakdown::network_s);
  if (frontend > queue && frontend > network)
    return printf_string("server frontend (%.2f s more per event waiting for a handler thread; %s %.2f)", frontend,
                         device, gpu);
  if (gpu > 0.8)
    return printf_string("%s (utilisation %.2f; %.2f s per event waiting in the batcher queue)", device, gpu, queue);
  if (queue > network)
    return printf_string("batcher queue (%.2f s more per event with the %ss only %.2f busy)", queue, device, gpu);
  return printf_string("network latency and sharing (%.2f s more per event on the network; busiest link \"%s\" at %.2f)",
                       network, link.name.c_str(), link.utilization);
}

// Cost per event at the planned configuration (lo jobs on the scenario's devices) and on CPU only;
// with a target throughput, the cheapest of the two scaled to meet it (jobs and devices in the
// planned ratio, links assumed to grow with them).
void print_costs(const Costs& c, int jobs, int gpus, double event_s, double cpu_only_event_s, const char* device) {
  const double per_hour = jobs * c.cpu_core_hour + gpus * c.gpu_hour;
  const double events_per_hour = jobs * 3600 / event_s;
  std::cout << printf_string("cost: %.4g %s per event with %d jobs on %d %ss (%.4g %s per hour, %.0f events per hour)",
                             per_hour / events_per_hour, c.currency.c_str(), jobs, gpus, device, per_hour,
                             c.currency.c_str(), events_per_hour);
  if (cpu_only_event_s > 0)
    std::cout << printf_string("; CPU only %.4g %s per event", c.cpu_core_hour * cpu_only_event_s / 3600, c.currency.c_str());
  std::cout << '\n';
  if (!c.target_events_per_hour) return;
  const double target = *c.target_events_per_hour;
  const int sonic_jobs = static_cast<int>(std::ceil(target * event_s / 3600));
  const int sonic_gpus = gpus > 0 ? static_cast<int>(std::ceil(static_cast<double>(sonic_jobs) * gpus / jobs)) : 0;
  const double sonic_cost = sonic_jobs * c.cpu_core_hour + sonic_gpus * c.gpu_hour;
  std::cout << printf_string("for %.0f events per hour: %d jobs and %d %ss, %.4g %s per hour", target, sonic_jobs,
                             sonic_gpus, device, sonic_cost, c.currency.c_str());
  if (cpu_only_event_s > 0) {
    const int cpu_jobs = static_cast<int>(std::ceil(target * cpu_only_event_s / 3600));
    const double cpu_cost = cpu_jobs * c.cpu_core_hour;
    std::cout << printf_string("; CPU only %d jobs, %.4g %s per hour; cheapest: %s", cpu_jobs, cpu_cost,
                               c.currency.c_str(), sonic_cost <= cpu_cost ? (std::string("with ") + device + "s").c_str() : "CPU only");
  }
  std::cout << '\n';
}

// "10,20,50": positive finite numbers.
std::vector<double> parse_positive_list(const std::string& text, const char* option) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !(std::isfinite(v) && v > 0))
      throw po::error(std::string(option) + " expects positive numbers separated by commas, got \"" + text + "\"");
    values.push_back(v);
    if (values.size() > 100) throw po::error(std::string(option) + " takes at most 100 values");
    start = comma + 1;
  }
  return values;
}

}  // namespace

int plan_command(const std::vector<std::string>& args) {
  po::options_description options("sonicsim plan SCENARIO.json [options]");
  std::vector<std::string> sets;
  double tolerance = 0.05, link_threshold = 0.9;
  int max_jobs = 0;
  std::string thresholds_text, max_replicas_text, target_text;
  options.add_options()
      ("help,h", "show this help")
      ("tolerance", po::value(&tolerance), "largest rise of the mean per-event time over one job alone (default 0.05)")
      ("link-threshold", po::value(&link_threshold), "largest utilisation of a shared link (default 0.9)")
      ("max-jobs", po::value(&max_jobs), "search up to this many jobs (default: every worker core)")
      ("set", po::value(&sets)->composing(), "override a scenario value: /JSON/POINTER=VALUE (repeatable)")
      ("target-event-time", po::value(&target_text), "autoscaled scenario: the mean per-event time to meet, e.g. 0.6s")
      ("thresholds", po::value(&thresholds_text), "autoscaled scenario: autoscaler thresholds to try, e.g. 10,20,50 (default: the scenario's)")
      ("max-replicas", po::value(&max_replicas_text), "autoscaled scenario: max_replicas to try, e.g. 2,4,8 (default: the scenario's)");
  std::string path;
  const auto parsed = parse_command_line(args, options, "scenario", po::value(&path), 1);
  if (!parsed) return 0;
  if (path.empty()) throw po::error("missing the scenario file (sonicsim plan SCENARIO.json)");
  if (!(std::isfinite(tolerance) && tolerance > 0)) throw po::error("--tolerance expects a positive fraction, e.g. 0.05");
  if (!(link_threshold > 0 && link_threshold <= 1)) throw po::error("--link-threshold expects a fraction in (0, 1]");
  if (parsed->count("max-jobs") && max_jobs < 1) throw po::error("--max-jobs expects at least 1 job");

  const Overrides overrides = parse_overrides(sets);
  const Scenario scenario = load_scenario(path, overrides);
  if (scenario.perf_analyzer) throw po::error("plan needs a grid-job workload, not a perf_analyzer load");
  if (const ServerGroup* group = scenario.autoscaled_group()) {
    if (target_text.empty())
      throw po::error("an autoscaled scenario is planned against a target: --target-event-time DURATION");
    AutoscalingGrid grid;
    try {
      grid.target_event_s = units::parse_duration_s(target_text);
    } catch (const std::exception& e) {
      throw po::error(std::string("--target-event-time: ") + e.what());
    }
    if (!(grid.target_event_s > 0)) throw po::error("--target-event-time expects a positive duration, e.g. 0.6s");
    grid.thresholds = thresholds_text.empty() ? std::vector<double>{group->autoscaling->hpa.target}
                                              : parse_positive_list(thresholds_text, "--thresholds");
    for (double m : max_replicas_text.empty() ? std::vector<double>{double(group->autoscaling->hpa.max_replicas)}
                                              : parse_positive_list(max_replicas_text, "--max-replicas")) {
      if (m != std::floor(m) || m > 10'000) throw po::error("--max-replicas expects whole numbers from 1 to 10000");
      grid.max_replicas.push_back(static_cast<int>(m));
    }
    return plan_autoscaling(path, overrides, grid);
  }
  if (!target_text.empty() || !thresholds_text.empty() || !max_replicas_text.empty())
    throw po::error("--target-event-time, --thresholds and --max-replicas plan an autoscaled scenario (a server group with \"autoscaling\")");
  const int cores = static_cast<int>(std::min<std::int64_t>(scenario.total_worker_cores(), 2'000'000'000));
  if (max_jobs <= 0 || max_jobs > cores) max_jobs = cores;
  int gpus = 0;
  for (const auto& g : scenario.platform.servers) gpus += g.count * g.gpus_per_server;
  const DeviceWords words = device_words(scenario.device_naming);

  // Every probe runs until its mean per-event time is known to a quarter of the tolerance (95%),
  // or to its workload's end.
  int runs = 0;
  double simulated_s = 0;
  StatusLine status(isatty(STDERR_FILENO));
  const auto started = std::chrono::steady_clock::now();
  const auto simulate_jobs = [&](int jobs, Overrides o) {
    o.emplace_back("/workload/jobs", std::to_string(jobs));
    o.emplace_back("/simulation/stop_at_precision", json{{"relative_half_width", tolerance / 4}}.dump());
    status.show(printf_string("  run %d: %d %s running; %d runs done, %.0f s simulated, %.0f s elapsed", runs + 1, jobs,
                              jobs == 1 ? "job" : "jobs",
                              runs, simulated_s,
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()));
    Summary s = simulated_summary(path, o);
    status.clear();
    ++runs;
    simulated_s += s.simulated_s;
    return s;
  };
  std::cout << "plan for " << scenario.name << printf_string(" (tolerance %g%%, link threshold %g%%)\n", 100 * tolerance,
                                                              100 * link_threshold);
  const AnalyticModel closed = analytic_model(scenario);
  const Summary alone = simulate_jobs(1, overrides);
  const KneeCriteria criteria{mean_event_time(alone), tolerance, link_threshold};
  std::cout << printf_string("  1 job alone: %.3f s per event\n", criteria.baseline_s);
  const int start = closed_form_knee(closed, tolerance, max_jobs);
  std::cout << printf_string("  closed form: within the tolerance up to %d jobs; the search starts there\n", start);
  const auto probe = [&](int jobs) {
    Summary s = simulate_jobs(jobs, overrides);
    const auto half_width = plan_event_time_half_width(s);
    std::cout << printf_string("  %5d jobs: %.3f s per event%s (%+.1f%%), %s %.2f, busiest link %.2f %s\n", jobs,
                               mean_event_time(s), half_width ? printf_string(" ± %.3f", *half_width).c_str() : "",
                               100 * (mean_event_time(s) / criteria.baseline_s - 1), words.label,
                               s.gpu_utilization, busiest_link(s).utilization,
                               criteria.within(s) ? "" : "<- past the knee");
    return s;
  };
  const double slope = analytic_prediction(closed, start + 1.0).per_event_s - analytic_prediction(closed, start).per_event_s;
  const KneeSearch knee = search_knee(start, max_jobs, criteria, alone, slope, probe);
  const int lo = knee.lo, hi = knee.hi;
  const Summary& at_lo = knee.at_lo;
  const Summary& at_hi = knee.at_hi;

  std::cout << '\n';
  if (hi == 0) {
    std::cout << printf_string("no knee up to %d jobs (%s): the per-event time stays within %g%% of one job alone\n",
                               max_jobs, max_jobs == cores ? "every worker core" : "--max-jobs", 100 * tolerance);
  } else {
    const std::string resource = saturated_resource(at_hi, alone, criteria);
    std::cout << printf_string("largest job count within tolerance: %d (%.3f s per event)\n", lo, mean_event_time(at_lo))
              << "saturates first at " << hi << " jobs: " << resource << '\n';
    if (resource.rfind(words.label, 0) == 0 && gpus > 0)
      std::cout << printf_string("optimal CPU:%s ratio: %.1f jobs per %s (%d jobs on %d %ss)\n", words.label,
                                 static_cast<double>(lo) / gpus, words.label, lo, gpus, words.label);
    else
      std::cout << "concurrent-job cap: " << lo << " jobs, set by the " << resource << '\n';
    if (knee.surely_within || knee.surely_past)
      std::cout << printf_string("the knee at 95%%: past %s and at most %s (the probes' intervals against the "
                                 "threshold %.3f s)\n",
                                 knee.surely_within ? std::to_string(*knee.surely_within).c_str() : "?",
                                 knee.surely_past ? std::to_string(*knee.surely_past - 1).c_str() : "?",
                                 criteria.threshold_s());
  }
  std::cout << "closed form (t_SONIC): " << describe_saturation(closed) << '\n';

  // Speed-up against running every inference module on the grid CPU (needs their cpu_fallback).
  bool fallback_everywhere = true;
  for (const Module& m : scenario.workload.modules)
    if (const auto* inference = std::get_if<InferenceModule>(&m); inference && !inference->cpu_fallback) fallback_everywhere = false;
  double cpu_s = 0;
  if (fallback_everywhere) {
    Overrides cpu_only = overrides;
    cpu_only.emplace_back("/platform/servers", "[]");
    cpu_s = mean_event_time(simulate_jobs(1, cpu_only));
    std::cout << printf_string("speed-up against CPU only: %.3f s / %.3f s = %.2fx per event\n", cpu_s, criteria.baseline_s,
                               cpu_s / criteria.baseline_s);
  } else {
    std::cout << "speed-up against CPU only: not computed (an inference module has no \"cpu_fallback\" time)\n";
  }
  if (scenario.costs) print_costs(*scenario.costs, lo, gpus, mean_event_time(at_lo), cpu_s, words.label);
  std::cout << printf_string("search: %d runs, %.0f s simulated\n", runs, simulated_s);
  return 0;
}

}  // namespace sonicsim::cli
