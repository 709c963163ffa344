#include "cli/plan/plan_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/overrides.hpp"
#include "cli/plan/fewest_devices.hpp"
#include "cli/plan/job_cap.hpp"
#include "cli/plan/load_axis.hpp"
#include "cli/plan/plan_autoscaling.hpp"
#include "cli/plan/workload_as_given.hpp"
#include "models/io/text_format.hpp"
#include "models/io/units.hpp"
#include "models/scenario/reader/scenario_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;

namespace {

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

// The group --devices sizes: the one named by --group, else the only one.
int devices_group(const Scenario& scenario, const std::string& name) {
  const auto& groups = scenario.platform.servers;
  if (groups.empty()) throw po::error("--devices sizes a server group, and the scenario has none");
  if (name.empty()) {
    if (groups.size() > 1) throw po::error("--devices: the scenario has several server groups; name one with --group NAME");
    return 0;
  }
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (groups[g].name == name) return static_cast<int>(g);
  std::string names;
  for (const ServerGroup& g : groups) names += (names.empty() ? "\"" : ", \"") + g.name + "\"";
  throw po::error("--group: no server group \"" + name + "\" (the scenario's: " + names + ")");
}

// A whole number of at least 1 from an option, or 0 where it was not given.
int count_option(const po::variables_map& vm, const char* option) {
  if (!vm.count(option)) return 0;
  const int value = vm[option].as<int>();
  if (value < 1) throw po::error(std::string("--") + option + " expects a whole number of at least 1");
  return value;
}

}  // namespace

int plan_command(const std::vector<std::string>& args) {
  po::options_description options("sonicsim plan SCENARIO.json [options]");
  std::vector<std::string> sets;
  std::string tolerance_text = "5%", link_threshold_text = "90%", vary, group;
  std::string thresholds_text, max_replicas_text, target_text;
  options.add_options()
      ("help,h", "show this help")
      ("tolerance", po::value(&tolerance_text), "largest rise of the mean per-event time over one job alone: 5% or 0.05 (default 5%)")
      ("link-threshold", po::value(&link_threshold_text), "largest utilisation of a shared link: 90% or 0.9 (default 90%)")
      ("max-jobs", po::value<int>(), "search up to this many jobs (default: every worker core)")
      ("vary", po::value(&vary), "search the load this JSON pointer sets instead of the jobs: a count "
                                 "(/workload/submit/jobs_per_wave) or a duration between submissions, searched per hour "
                                 "(/workload/submit/mean_interval)")
      ("max", po::value<int>(), "--vary: search up to this value (per hour for a duration; default: as far as the worker cores and the "
                            "workload's jobs go)")
      ("devices", "the fewest servers that keep the workload as given within the tolerance; on an autoscaled group, "
                  "the fewest max_replicas (its pool grows to match)")
      ("group", po::value(&group), "--devices: the server group to size (default: the only one)")
      ("max-servers", po::value<int>(), "--devices: try at most this many servers (default: twice the closed form's)")
      ("set", po::value(&sets)->composing(), "override a scenario value: /JSON/POINTER=VALUE (repeatable)")
      ("seed", po::value<std::string>(), "random seed of every run (overrides /simulation/seed)")
      ("target-event-time", po::value(&target_text), "autoscaled scenario: the mean per-event time to meet, e.g. 0.6s")
      ("thresholds", po::value(&thresholds_text), "autoscaled scenario: autoscaler thresholds to try, e.g. 10,20,50 (default: the scenario's)")
      ("max-replicas", po::value(&max_replicas_text), "autoscaled scenario: max_replicas to try, e.g. 2,4,8 (default: the scenario's)");
  std::string path;
  const auto parsed = parse_command_line(args, options, "scenario", po::value(&path), 1);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (path.empty()) throw po::error("missing the scenario file (sonicsim plan SCENARIO.json)");
  const double tolerance = fraction_option(tolerance_text, "--tolerance");
  if (!(tolerance > 0)) throw po::error("--tolerance expects a positive fraction, e.g. 5% or 0.05");
  const double link_threshold = link_threshold_text == "1" ? 1.0 : fraction_option(link_threshold_text, "--link-threshold");
  if (!(link_threshold > 0 && link_threshold <= 1)) throw po::error("--link-threshold expects a fraction in (0, 100%]");
  const int max_jobs = count_option(vm, "max-jobs"), max_value = count_option(vm, "max"),
            max_servers = count_option(vm, "max-servers");
  const bool devices = vm.count("devices") > 0;
  if (!vary.empty() && max_jobs) throw po::error("--max-jobs bounds the job search; with --vary, bound it with --max");
  if (vary.empty() && max_value) throw po::error("--max goes with --vary (the job search takes --max-jobs)");
  if (devices && (!vary.empty() || max_jobs)) throw po::error("--devices sizes the farm for the workload as given: not with --vary or --max-jobs");
  if (!devices && (!group.empty() || max_servers)) throw po::error("--group and --max-servers go with --devices");

  Overrides overrides = parse_overrides(sets);
  if (vm.count("seed"))
    overrides.emplace_back("/simulation/seed", std::to_string(seed_option(vm["seed"].as<std::string>(), "--seed")));
  const Scenario scenario = load_scenario(path, overrides);
  if (scenario.perf_analyzer) throw po::error("plan needs a grid-job workload, not a perf_analyzer load");
  const bool autoscaling_grid = !target_text.empty() || !thresholds_text.empty() || !max_replicas_text.empty();
  if (const ServerGroup* g = scenario.autoscaled_group(); g && !devices) {
    if (target_text.empty())
      throw po::error("an autoscaled scenario is planned against a target: --target-event-time DURATION (or sized with --devices)");
    AutoscalingGrid grid;
    try {
      grid.target_event_s = units::parse_duration_s(target_text);
    } catch (const std::exception& e) {
      throw po::error(std::string("--target-event-time: ") + e.what());
    }
    if (!(grid.target_event_s > 0)) throw po::error("--target-event-time expects a positive duration, e.g. 0.6s");
    grid.thresholds = thresholds_text.empty() ? std::vector<double>{g->autoscaling->hpa.target}
                                              : parse_positive_list(thresholds_text, "--thresholds");
    for (double m : max_replicas_text.empty() ? std::vector<double>{double(g->autoscaling->hpa.max_replicas)}
                                              : parse_positive_list(max_replicas_text, "--max-replicas")) {
      if (m != std::floor(m) || m > 10'000) throw po::error("--max-replicas expects whole numbers from 1 to 10000");
      grid.max_replicas.push_back(static_cast<int>(m));
    }
    PlanProbes probes(path, overrides, tolerance);
    const int code = plan_autoscaling(PlanContext{scenario, probes, tolerance, link_threshold,
                                                  device_words(scenario.device_naming), 0},
                                      grid);
    std::cout << printf_string("search: %d runs, %.0f s simulated\n", probes.runs(), probes.simulated_s());
    return code;
  }
  if (autoscaling_grid)
    throw po::error("--target-event-time, --thresholds and --max-replicas plan an autoscaled scenario (a server group with \"autoscaling\")");

  PlanProbes probes(path, overrides, tolerance);
  PlanContext plan{scenario, probes, tolerance, link_threshold, device_words(scenario.device_naming), 0};
  for (const ServerGroup& g : scenario.platform.servers) plan.devices += g.count * g.gpus_per_server;
  std::cout << "plan for " << scenario.name << printf_string(" (tolerance %g%%, link threshold %g%%)\n", 100 * tolerance,
                                                              100 * link_threshold);
  int code = 0;
  if (devices) {
    code = plan_fewest_devices(plan, devices_group(scenario, group), max_servers);
  } else if (!vary.empty()) {
    code = plan_job_cap(plan, load_axis(path, overrides, vary), max_value);
  } else if (scenario.workload.submit) {
    code = plan_workload_as_given(plan);
  } else {
    // A static farm holds at most one job per core, or per `threads` cores of a node.
    const int cores = static_cast<int>(std::min<std::int64_t>(scenario.job_slots(), 2'000'000'000));
    code = plan_job_cap(plan, LoadAxis{"/workload/jobs", false, scenario.workload.jobs},
                        max_jobs > 0 && max_jobs < cores ? max_jobs : cores);
  }
  std::cout << printf_string("search: %d runs, %.0f s simulated\n", probes.runs(), probes.simulated_s());
  return code;
}

}  // namespace sonicsim::cli
