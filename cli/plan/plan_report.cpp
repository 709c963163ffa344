#include "cli/plan/plan_report.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <iostream>

#include "analysis/run_soundness.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {

std::optional<Summary> one_job_alone(const PlanContext& plan) {
  Summary alone = plan.probes.run({{"/workload/jobs", "1"}}, "1 job");
  if (const auto unsound = unsound_reasons(alone); !unsound.empty()) {
    std::cout << "  1 job alone: no sound run (" << joined_reasons(unsound)
              << "): without it as the baseline there is nothing to plan against\n";
    return std::nullopt;
  }
  std::cout << printf_string("  1 job alone: %.3f s per event\n", plan_event_time(alone));
  return alone;
}

std::string describe_measurement(const Summary& s) {
  const auto& stop = s.precision_stop;
  if (!stop) return printf_string("measured over the whole run (t = 0 to %.0f s)", s.simulated_s);
  const auto& cycles = s.steady.cycles;
  if (stop->reached && cycles && stop->cycles)
    return printf_string(
        "estimated over whole load cycles of %.0f s (%s): %zu from t = %.0f s to t = %.0f s, after "
        "%zu cut as the farm's transient",
        cycles->cycle_s, stop->cycles->repeats_until_s ? "the wave period" : "the autoscaler's settle time",
        cycles->cycles - cycles->cut, s.steady.warmup_until_s, s.simulated_s, cycles->cut);
  if (stop->reached)
    return printf_string(
        "estimated at its full load: from t = %.0f s, when every job had been submitted, to t = %.0f s",
        std::max(stop->load_from_s, s.steady.warmup_until_s), s.simulated_s);
  if (stop->drained && stop->cycles && stop->cycles->repeats_until_s)
    return printf_string(
        "its waves ended (t = %.0f s) before whole load cycles pinned its per-event time, so the run "
        "went to its end (t = %.0f s): the answer is the mean over all of its events",
        *stop->cycles->repeats_until_s, s.simulated_s);
  if (stop->drained)
    return printf_string(
        "the workload never levels: its running jobs fall after its last submission (t = %.0f s), so "
        "the run went to its end (t = %.0f s): the answer is the mean over all of its events",
        stop->load_from_s, s.simulated_s);
  return printf_string("not precise to ±%g%% by the run's end (t = %.0f s)", 100 * stop->relative_half_width,
                       s.simulated_s);
}

std::string probe_line(const std::string& what, const Summary& s, const KneeCriteria& criteria,
                       const DeviceWords& words) {
  const auto half_width = plan_event_time_half_width(s);
  const std::vector<std::string> unsound = unsound_reasons(s);
  return printf_string("  %s: %.3f s per event%s (%+.1f%%), %s %.2f%s, busiest link %.2f %s\n", what.c_str(),
                       plan_event_time(s), half_width ? printf_string(" ± %.3f", *half_width).c_str() : "",
                       100 * (plan_event_time(s) / criteria.baseline_s - 1), words.label, device_utilization(s),
                       s.autoscaling ? " in service" : "", busiest_link(s).utilization,
                       !unsound.empty()     ? ("<- unsound: " + joined_reasons(unsound)).c_str()
                       : criteria.within(s) ? ""
                                            : "<- past the knee");
}

std::string saturated_resource(const Summary& s, const Summary& alone, const KneeCriteria& c) {
  if (const auto unsound = unsound_reasons(s); !unsound.empty()) return "no sound run: " + joined_reasons(unsound);
  const BusiestLink link = busiest_link(s);
  const double gpu = device_utilization(s);
  const char* device = device_words(s.device_naming).label;
  const auto link_named = [&] {
    return "link \"" + link.name + "\"" + printf_string(" (utilisation %.2f, %s %.2f)", link.utilization, device, gpu);
  };
  if (link.utilization > c.link_threshold) return link_named();
  // The part of the per-event time that grew most against one job alone names what gave out.
  const auto grown = [&](double EventBreakdown::*part) { return s.breakdown.*part - alone.breakdown.*part; };
  enum Part { Frontend, Queue, Kernels, Network, Fallback, Worker };
  const double growth[] = {
      grown(&EventBreakdown::frontend_s), grown(&EventBreakdown::queue_s),
      grown(&EventBreakdown::gpu_s),      grown(&EventBreakdown::network_s),
      grown(&EventBreakdown::fallback_s), grown(&EventBreakdown::cpu_s) + grown(&EventBreakdown::preprocess_s)};
  const int most = static_cast<int>(std::max_element(std::begin(growth), std::end(growth)) - std::begin(growth));
  const double by = growth[most];
  const std::string of_total =
      printf_string("%.3g of the %.3g s more per event", by, plan_event_time(s) - plan_event_time(alone));
  switch (most) {
    case Frontend:
      return printf_string("server frontend (%s waiting for a handler thread; %s %.2f)", of_total.c_str(), device, gpu);
    case Queue:
      if (gpu > 0.8)
        return printf_string("%s (utilisation %.2f; %s waiting in the batcher queue)", device, gpu, of_total.c_str());
      return printf_string("batcher queue (%s with the %ss only %.2f busy)", of_total.c_str(), device, gpu);
    case Kernels:
      return printf_string(
          "%s execution (%s in kernels: larger batches, or executions sharing the %s; utilisation %.2f)", device,
          of_total.c_str(), device, gpu);
    case Fallback:
      return printf_string(
          "inference on the worker CPU (%s: %lld jobs refused by the saturation gate or the proxy, "
          "%lld events fell back after failed requests)",
          of_total.c_str(), static_cast<long long>(s.gate ? s.gate->refused : 0),
          static_cast<long long>(s.failures ? s.failures->events_on_cpu : 0));
    case Worker: return printf_string("the worker CPU (%s in the jobs' own modules)", of_total.c_str());
    default:
      if (link.utilization > gpu) return link_named();
      return printf_string("network latency and sharing (%s on the network; busiest link \"%s\" at %.2f)",
                           of_total.c_str(), link.name.c_str(), link.utilization);
  }
}

double cpu_only_event_s(const PlanContext& plan, double baseline_s) {
  for (const Module& m : plan.scenario.workload.modules)
    if (const auto* inference = std::get_if<InferenceModule>(&m); inference && !inference->cpu_fallback) {
      std::cout << "speed-up against CPU only: not computed (an inference module has no \"cpu_fallback\" time)\n";
      return 0;
    }
  const double cpu_s =
      plan_event_time(plan.probes.run({{"/workload/jobs", "1"}, {"/platform/servers", "[]"}}, "1 job on CPU only"));
  std::cout << printf_string("speed-up against CPU only: %.3f s / %.3f s = %.2fx per event\n", cpu_s, baseline_s,
                             cpu_s / baseline_s);
  return cpu_s;
}

void print_costs(const Costs& c, int jobs, int gpus, double event_s, double cpu_only_event_s, const char* device) {
  const double per_hour = jobs * c.cpu_core_hour + gpus * c.gpu_hour;
  const double events_per_hour = jobs * 3600 / event_s;
  std::cout << printf_string("cost: %.4g %s per event with %d jobs on %d %ss (%.4g %s per hour, %.0f events per hour)",
                             per_hour / events_per_hour, c.currency.c_str(), jobs, gpus, device, per_hour,
                             c.currency.c_str(), events_per_hour);
  if (cpu_only_event_s > 0)
    std::cout << printf_string("; CPU only %.4g %s per event", c.cpu_core_hour * cpu_only_event_s / 3600,
                               c.currency.c_str());
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
                               c.currency.c_str(),
                               sonic_cost <= cpu_cost ? (std::string("with ") + device + "s").c_str() : "CPU only");
  }
  std::cout << '\n';
}

}  // namespace sonicsim::cli
