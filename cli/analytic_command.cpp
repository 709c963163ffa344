#include "cli/analytic_command.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "cli/command_line.hpp"
#include "cli/overrides.hpp"
#include "cli/processes/simulated_summary.hpp"
#include "models/closed_form/analytic.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/scenario_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;

namespace {

double simulated_mean(const std::string& path, std::vector<std::pair<std::string, std::string>> overrides, int jobs) {
  overrides.emplace_back("/workload/jobs", std::to_string(jobs));
  return simulated_summary(path, std::move(overrides)).event_time.mean;
}

}  // namespace

int analytic_command(const std::vector<std::string>& args) {
  po::options_description options("sonicsim analytic SCENARIO.json [options]");
  std::vector<std::string> sets;
  std::vector<int> job_counts;
  double tolerance = 0.05;
  options.add_options()("help,h", "show this help")(
      "jobs", po::value(&job_counts)->multitoken(),
      "job counts to compare at (default: 1, the scenario's jobs, and 0.5, 1 and 1.5 times the GPU knee, up to "
      "the worker cores)")("no-simulation", "print the closed form only")(
      "tolerance", po::value(&tolerance), "warn where simulation and closed form differ by more (default 0.05)")(
      "set", po::value(&sets)->composing(), "override a scenario value: /JSON/POINTER=VALUE (repeatable)");
  std::string scenario_path;
  const auto parsed = parse_command_line(args, options, "scenario", po::value(&scenario_path), 1);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (scenario_path.empty()) throw po::error("missing the scenario file (sonicsim analytic SCENARIO.json)");
  for (const int jobs : job_counts)
    if (jobs < 1) throw po::error("--jobs expects job counts of at least 1, got " + std::to_string(jobs));
  if (!(std::isfinite(tolerance) && tolerance >= 0)) throw po::error("--tolerance expects a fraction of at least 0");

  const auto overrides = parse_overrides(sets);
  const Scenario scenario = load_scenario(scenario_path, overrides);
  const AnalyticModel m = analytic_model(scenario);
  std::cout << "t_SONIC closed form of " << scenario.name << " (per event, one job alone)\n"
            << printf_string("  non-ML CPU        %10.3f s\n", m.cpu_s)
            << printf_string("  preprocessing     %10.3f s\n", m.preprocess_s)
            << (m.device_naming == DeviceNaming::Gpu
                    ? printf_string("  GPU (sum of tau)  %10.3f s   %.10g requests on %d GPUs\n", m.gpu_s,
                                    m.requests_per_event, m.gpus)
                    : printf_string("  device (sum tau)  %10.3f s   %.10g requests on %d devices\n", m.gpu_s,
                                    m.requests_per_event, m.gpus))
            << (m.frontend_s > 0 ? printf_string("  server frontend   %10.3f s   on %d handler threads\n", m.frontend_s,
                                                 m.frontend_threads)
                                 : std::string())
            << printf_string("  transfer          %10.3f s   at %.3f Gbps per flow\n", m.transfer_s,
                             m.flow_rate_Bps * 8e-9)
            << printf_string("  round trips       %10.3f s\n", m.round_trips_s);
  if (m.cpu_fallback_s > 0) std::cout << printf_string("  CPU fallback      %10.3f s\n", m.cpu_fallback_s);
  std::cout << printf_string("  t_ideal           %10.3f s\n\n", m.ideal_s())
            << "saturation: " << describe_saturation(m) << "\n\n";

  if (job_counts.empty()) {
    std::map<int, bool> chosen{{1, true}, {scenario.workload.jobs, true}};
    const double knee = gpu_knee_jobs(m);
    for (double f : {0.5, 1.0, 1.5})
      if (std::isfinite(knee) && f * knee <= static_cast<double>(scenario.total_worker_cores()))
        chosen[std::max(1, static_cast<int>(std::lround(f * knee)))] = true;
    for (const auto& [n, unused] : chosen) job_counts.push_back(n);
  }
  const bool simulate_too = !vm.count("no-simulation");
  std::cout << printf_string("%8s  %12s  %-32s", "jobs", "closed form", "regime")
            << (simulate_too ? printf_string("  %12s  %9s", "simulated", "diff") : "") << '\n';
  int diverging = 0;
  for (int jobs : job_counts) {
    const AnalyticPrediction p = analytic_prediction(m, jobs);
    std::cout << printf_string("%8d  %10.3f s  %-32s", jobs, p.per_event_s, p.regime.c_str());
    if (simulate_too) {
      const double sim = simulated_mean(scenario_path, overrides, jobs);
      const double diff = sim / p.per_event_s - 1;
      std::cout << printf_string("  %10.3f s  %+8.2f%%", sim, 100 * diff);
      if (std::abs(diff) > tolerance) {
        std::cout << "  <- differ by more than " << printf_string("%g%%", 100 * tolerance);
        ++diverging;
      }
    }
    std::cout << '\n';
  }
  if (diverging)
    std::cout << "\nwarning: " << diverging << (diverging == 1 ? " row differs" : " rows differ")
              << " beyond the tolerance: near a knee, with batching across jobs, shared links at partial load, or "
                 "random module times, the closed form's assumptions do not hold\n";
  return 0;
}

}  // namespace sonicsim::cli
