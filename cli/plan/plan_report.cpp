#include "cli/plan/plan_report.hpp"

#include <cmath>
#include <iostream>

#include "models/io/text_format.hpp"

namespace sonicsim::cli {

std::string probe_line(const std::string& what, const Summary& s, const KneeCriteria& criteria, const DeviceWords& words) {
  const auto half_width = plan_event_time_half_width(s);
  return printf_string("  %s: %.3f s per event%s (%+.1f%%), %s %.2f, busiest link %.2f %s\n", what.c_str(),
                       plan_event_time(s), half_width ? printf_string(" ± %.3f", *half_width).c_str() : "",
                       100 * (plan_event_time(s) / criteria.baseline_s - 1), words.label, s.gpu_utilization,
                       busiest_link(s).utilization, criteria.within(s) ? "" : "<- past the knee");
}

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
                               c.currency.c_str(),
                               sonic_cost <= cpu_cost ? (std::string("with ") + device + "s").c_str() : "CPU only");
  }
  std::cout << '\n';
}

}  // namespace sonicsim::cli
