#include "analysis/summary/summary.hpp"

#include <algorithm>
#include <utility>

#include "analysis/stats/steady_estimates.hpp"

namespace sonicsim {

namespace {

JobsSummary summarize_jobs(const SimulationResults& r) {
  JobsSummary s;
  std::vector<double> waits;
  double core_seconds = 0;
  std::vector<std::pair<double, int>> changes;  // (when, +1 a job starts or -1 it ends)
  for (const JobRecord& j : r.jobs) {
    ++s.submitted;
    if (j.outcome == JobOutcome::Queued) {
      ++s.queued_at_end;
      continue;
    }
    ++s.started;
    waits.push_back(j.start_s - j.submit_s);
    changes.emplace_back(j.start_s, +1);
    if (j.outcome != JobOutcome::Running) changes.emplace_back(j.end_s, -1);
    if (j.outcome != JobOutcome::Running) {
      if (j.outcome == JobOutcome::Done) ++s.done;
      if (j.outcome == JobOutcome::Failed) ++s.failed;
      if (j.outcome == JobOutcome::Resubmitted) ++s.resubmitted;
      core_seconds += (j.end_s - j.start_s) * j.threads;
    } else {
      ++s.running_at_end;
      core_seconds += (r.end_s - j.start_s) * j.threads;
    }
  }
  // Ends before starts at one instant: a core handed from one job to the next is held once.
  std::sort(changes.begin(), changes.end());
  std::int64_t running = 0;
  for (const auto& [when, change] : changes) s.peak_running = std::max(s.peak_running, running += change);
  const stats::Description w = stats::describe(waits);
  s.queue_wait_s = {w.mean, w.p50, w.p90, w.p99, w.max};
  if (r.end_s > 0 && r.header.worker_cores > 0)
    s.slot_occupancy = core_seconds / (static_cast<double>(r.header.worker_cores) * r.end_s);
  return s;
}

UsageSummary summarize_usage(const SimulationResults& r) {
  UsageSummary u;
  const double autoscaled_gpu_s = r.autoscaling ? r.autoscaling->gpu_seconds : 0;
  u.gpu_hours = (r.fixed_gpu_seconds + autoscaled_gpu_s) / 3600;
  u.core_hours = r.job_core_seconds / 3600;
  // Over every completed event, warm-up included: what the hours bought.
  const double events = static_cast<double>(r.events.size());
  if (!r.events.empty()) u.gpu_hours_per_1000_events = 1000 * u.gpu_hours / events;
  u.currency = r.header.currency;
  if (r.header.currency && !r.events.empty())
    u.cost_per_event = (u.gpu_hours * r.header.gpu_hour_price + u.core_hours * r.header.cpu_core_hour_price) / events;
  return u;
}

AutoscalingSummary summarize_autoscaling(const AutoscalingTotals& a, double end_s) {
  AutoscalingSummary s;
  if (end_s > 0) {
    s.mean_ready_replicas = a.ready_replica_seconds / end_s;
    s.mean_gpus_held = a.gpu_seconds / end_s;
  }
  s.max_ready_replicas = a.max_ready;
  s.pods_created = a.pods_created;
  s.pods_ready = a.pods_ready;
  s.pods_deleted = a.pods_deleted;
  s.requests_refused_draining = a.requests_refused_draining;
  s.requests_killed = a.requests_killed;
  s.threshold = a.threshold;
  return s;
}

std::optional<Interval95> interval95(const std::optional<stats::Interval>& i) {
  if (!i) return std::nullopt;
  return Interval95{i->mean, i->half_width};
}

SteadySummary summarize_steady_state(const SteadyState& s) {
  const SteadyEventTime& e = s.event_time;
  SteadySummary out;
  out.warmup_cut_events = e.warmup_cut;
  out.warmup_until_s = e.warmup_end_s;
  out.warmup_at_limit = e.warmup_at_limit;
  out.events_after_cut = e.series - e.warmup_cut;
  out.event_time_s = e.mean_s;
  out.window_s = s.window_s;
  out.events_per_s = interval95(s.events_per_s);
  out.device_utilization = interval95(s.device_utilization);
  if (e.cycle_s > 0) out.cycles = CycleSummary{e.cycle_s, e.cycles, e.cycles_cut};
  return out;
}

}  // namespace

Summary summarize(const SimulationResults& r) {
  Summary s;
  s.scenario = r.header.scenario;
  s.seed = r.header.seed;
  if (r.header.latency_quantile > 0) s.latency_quantile = r.header.latency_quantile;
  if (!r.network_fast_path.empty()) s.network = NetworkSummary{r.network_fast_path};
  s.device_naming = r.header.device_naming;
  s.simulated_s = r.end_s;
  s.warmup_s = r.header.warmup_s;

  std::vector<double> times;
  for (const EventRecord& e : r.events) {
    if (e.start_s < r.header.warmup_s) continue;
    times.push_back(e.time_s());
    s.breakdown.cpu_s += e.cpu_s;
    s.breakdown.preprocess_s += e.preprocess_s;
    s.breakdown.fallback_s += e.fallback_s;
    s.breakdown.inference_s += e.inference_s;
    s.breakdown.network_s += e.network_s;
    s.breakdown.frontend_s += e.frontend_s;
    s.breakdown.queue_s += e.queue_s;
    s.breakdown.gpu_s += e.gpu_s;
  }
  s.event_time = stats::describe(times);
  s.steady = summarize_steady_state(steady_state(r));
  s.precision_stop = r.precision_stop;
  if (!times.empty()) {
    const double n = static_cast<double>(times.size());
    for (double* x : {&s.breakdown.cpu_s, &s.breakdown.preprocess_s, &s.breakdown.fallback_s, &s.breakdown.inference_s,
                      &s.breakdown.network_s, &s.breakdown.frontend_s, &s.breakdown.queue_s, &s.breakdown.gpu_s})
      *x /= n;
  }
  const double window = r.end_s - r.header.warmup_s;
  if (window > 0) {
    s.events_per_s = static_cast<double>(times.size()) / window;
    s.requests_per_s = static_cast<double>(r.requests_completed) / r.end_s;
  }
  s.events_incomplete = r.events_incomplete;
  s.requests_sent = r.requests_sent;
  s.requests_completed = r.requests_completed;
  s.requests_rejected = r.requests_rejected;
  s.requests_in_flight = r.requests_in_flight_at_end;

  for (const GpuRecord& g : r.gpus) {
    const double u = r.end_s > 0 ? g.busy_s / r.end_s : 0;
    s.gpus.push_back({r.header.server_names[g.server], g.gpu, u});
    s.gpu_utilization += u;
  }
  if (!s.gpus.empty()) s.gpu_utilization /= static_cast<double>(s.gpus.size());

  const LinkRecord* busiest_private = nullptr;
  for (const LinkRecord& l : r.links) {
    if (l.shared) {
      s.links.push_back(
          {l.name, l.bandwidth_Bps * 8, l.bytes, r.end_s > 0 ? l.bytes / (l.bandwidth_Bps * r.end_s) : 0});
    } else if (!busiest_private ||
               l.bytes / l.bandwidth_Bps > busiest_private->bytes / busiest_private->bandwidth_Bps) {
      busiest_private = &l;
    }
  }
  if (busiest_private) {
    const LinkRecord& l = *busiest_private;
    s.links.push_back({l.name + " [busiest worker NIC]", l.bandwidth_Bps * 8, l.bytes,
                       r.end_s > 0 ? l.bytes / (l.bandwidth_Bps * r.end_s) : 0});
  }
  s.triton = triton_statistics(r);
  s.batches = r.batches_executed;
  s.mean_batch_items = r.batches_executed ? static_cast<double>(r.batch_units_executed) / r.batches_executed : 0;
  if (r.header.batch_system) s.jobs = summarize_jobs(r);
  if (r.header.threaded) s.job_threads = summarize_job_threads(r);
  if (const std::optional<FailureCounts>& f = r.failures)
    s.failures = FailureSummary{f->server_failures, f->server_restarts, f->unavailable, f->deadline_exceeded,
                                f->cancelled,       f->retried,         f->failed_over, f->events_fallen_back,
                                f->jobs_failed,     f->events_lost,     f->cpu_lost_s};
  if (const std::optional<GateCounts>& g = r.gate)
    s.gate = GateSummary{g->checks, g->refused, g->without_metric, g->events_on_cpu, g->threshold_ms};
  if (r.scrapes) s.usage = summarize_usage(r);
  if (r.scrapes && r.autoscaling) {
    s.autoscaling = summarize_autoscaling(*r.autoscaling, r.end_s);
    double busy_s = 0;
    for (const GpuRecord& g : r.gpus) busy_s += g.busy_s;
    const double in_service_s = r.autoscaling->serving_gpu_seconds + r.fixed_gpu_seconds;
    if (in_service_s > 0) s.autoscaling->gpu_utilization_in_service = busy_s / in_service_s;
  }
  if (const std::optional<ConnectionLimit>& c = r.connection_limit)
    s.connections = ConnectionSummary{c->opened, c->refused, c->events_on_cpu};
  return s;
}

}  // namespace sonicsim
