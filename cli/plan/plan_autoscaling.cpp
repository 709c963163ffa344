#include "cli/plan/plan_autoscaling.hpp"

#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>

#include "analysis/knee_search.hpp"
#include "analysis/run_soundness.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {

namespace {

struct Point {
  double threshold = 0;
  int max_replicas = 0;
  double event_s = 0, gpu_hours = 0, gpu_hours_per_1000 = 0, mean_ready = 0;
  std::optional<double> cost_per_event;
  std::int64_t gated = 0;
  std::vector<std::string> unsound;  // why the run is no answer (run_soundness.hpp)
};

// The figure of merit: cost per event with prices, else device-hours per event.
double price(const Point& p) { return p.cost_per_event ? *p.cost_per_event : p.gpu_hours_per_1000; }

}  // namespace

int plan_autoscaling(const PlanContext& plan, const AutoscalingGrid& grid) {
  const Scenario& scenario = plan.scenario;
  std::size_t group = 0;
  while (!scenario.platform.servers[group].autoscaling) ++group;
  const std::string base = "/platform/servers/" + std::to_string(group) + "/autoscaling/";
  const bool gated = scenario.platform.proxy && scenario.platform.proxy->gate;
  const DeviceWords words = device_words(scenario.device_naming);
  const bool gpu_names = scenario.device_naming == DeviceNaming::Gpu;
  std::cout << "autoscaling plan for " << scenario.name
            << printf_string(": cheapest setting with a mean per-event time within %.4g s\n", grid.target_event_s)
            << (gated ? "(the saturation gate's threshold follows the autoscaler's, as in SuperSONIC's chart)\n" : "")
            << printf_string("  %10s %8s %12s %10s %12s %12s %10s %8s\n", "threshold", "max", "event (s)",
                             gpu_names ? "GPU-h" : "device-h", gpu_names ? "GPU-h/1000ev" : "dev-h/1000ev",
                             "cost/event", "mean ready", "gated");
  std::optional<Point> best;
  for (double threshold : grid.thresholds) {
    for (int max_replicas : grid.max_replicas) {
      Overrides o{{base + "threshold", printf_string("%.17g", threshold)},
                  {base + "max_replicas", std::to_string(max_replicas)}};
      if (gated) o.emplace_back("/platform/proxy/saturation_gate/threshold", printf_string("%.17g", threshold));
      const Summary s = plan.probes.run(o, printf_string("threshold %g, max_replicas %d", threshold, max_replicas));
      const UsageSummary& usage = s.usage.value();  // an autoscaler is scraped
      Point p;
      p.threshold = threshold;
      p.max_replicas = max_replicas;
      p.event_s = plan_event_time(s);
      p.gpu_hours = usage.gpu_hours;
      p.gpu_hours_per_1000 = usage.gpu_hours_per_1000_events.value_or(std::numeric_limits<double>::infinity());
      p.cost_per_event = usage.cost_per_event;
      p.mean_ready = s.autoscaling.value().mean_ready_replicas;
      if (s.gate) p.gated = s.gate->refused;
      p.unsound = unsound_reasons(s);
      const bool meets = p.event_s <= grid.target_event_s && p.unsound.empty();
      std::cout << printf_string("  %10g %8d %12.4f %10.3f %12.5f %12s %10.2f %8lld%s\n", threshold, max_replicas,
                                 p.event_s, p.gpu_hours, p.gpu_hours_per_1000,
                                 p.cost_per_event ? printf_string("%.4g", *p.cost_per_event).c_str() : "-",
                                 p.mean_ready, static_cast<long long>(p.gated),
                                 meets                ? ""
                                 : !p.unsound.empty() ? ("  <- unsound: " + joined_reasons(p.unsound)).c_str()
                                                      : "  <- too slow");
      if (meets && (!best || price(p) < price(*best))) best = p;
    }
  }
  std::cout << '\n';
  if (!best) {
    std::cout << "no setting in the grid meets the target\n";
    return 1;
  }
  if (plan.answer)
    *plan.answer = {"max_replicas of the cheapest setting meeting the target", "replicas",
                    static_cast<double>(best->max_replicas), false};
  std::cout << printf_string(
      "cheapest setting meeting the target: threshold %g, max_replicas %d: %.4f s per event, "
      "%.5f %s-hours per 1000 events",
      best->threshold, best->max_replicas, best->event_s, best->gpu_hours_per_1000, words.label);
  if (best->cost_per_event)
    std::cout << printf_string(", %.4g %s per event", *best->cost_per_event, scenario.costs->currency.c_str());
  std::cout << '\n';
  return 0;
}

}  // namespace sonicsim::cli
