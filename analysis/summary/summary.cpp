#include "analysis/summary/summary.hpp"

#include <algorithm>
#include <cstdio>

#include "analysis/triton/triton_report.hpp"
#include "models/io/text_format.hpp"
#include "models/io/units.hpp"

namespace sonicsim {

namespace {

JobsSummary summarize_jobs(const SimulationResults& r) {
  JobsSummary s;
  std::vector<double> waits;
  double core_seconds = 0;
  for (const JobRecord& j : r.jobs) {
    ++s.submitted;
    if (j.outcome == JobOutcome::Queued) {
      ++s.queued_at_end;
      continue;
    }
    ++s.started;
    waits.push_back(j.start_s - j.submit_s);
    if (j.outcome != JobOutcome::Running) {
      if (j.outcome == JobOutcome::Done) ++s.done;
      if (j.outcome == JobOutcome::Failed) ++s.failed;
      if (j.outcome == JobOutcome::Resubmitted) ++s.resubmitted;
      core_seconds += j.end_s - j.start_s;
    } else {
      ++s.running_at_end;
      core_seconds += r.end_s - j.start_s;
    }
  }
  s.queue_wait_s = stats::describe(waits);
  if (r.end_s > 0 && r.worker_cores > 0) s.slot_occupancy = core_seconds / (static_cast<double>(r.worker_cores) * r.end_s);
  return s;
}

UsageSummary summarize_usage(const SimulationResults& r) {
  UsageSummary u;
  u.autoscaling = r.autoscaling;
  const double autoscaled_gpu_s = r.autoscaling ? r.autoscaling->gpu_seconds : 0;
  u.gpu_hours = (r.fixed_gpu_seconds + autoscaled_gpu_s) / 3600;
  u.core_hours = r.job_core_seconds / 3600;
  if (r.autoscaling && r.end_s > 0) {
    u.mean_ready_replicas = r.autoscaling->ready_replica_seconds / r.end_s;
    u.mean_gpus_held = r.autoscaling->gpu_seconds / r.end_s;
  }
  u.currency = r.currency;
  if (r.currency && !r.events.empty())
    u.cost_per_event = (u.gpu_hours * r.gpu_hour_price + u.core_hours * r.cpu_core_hour_price) /
                       static_cast<double>(r.events.size());
  u.events = r.events.size();
  return u;
}

template <typename T>
nlohmann::json value_or_null(const std::optional<T>& x) {
  return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

nlohmann::json usage_json(const UsageSummary& u, const DeviceWords& words) {
  std::optional<double> per_1000;
  if (u.events) per_1000 = 1000 * u.gpu_hours / static_cast<double>(u.events);
  const std::string device = words.key;
  return {{device + "_hours", u.gpu_hours},
          {"core_hours", u.core_hours},
          {device + "_hours_per_1000_events", value_or_null(per_1000)},
          {"currency", value_or_null(u.currency)},
          {"cost_per_event", value_or_null(u.cost_per_event)}};
}

nlohmann::json autoscaling_json(const UsageSummary& u, const DeviceWords& words) {
  const AutoscalingTotals& a = *u.autoscaling;
  return {{"mean_ready_replicas", u.mean_ready_replicas},
          {std::string("mean_") + words.plural + "_held", u.mean_gpus_held},
          {"max_ready_replicas", a.max_ready},
          {"pods", {{"created", a.pods_created}, {"became_ready", a.pods_ready}, {"deleted", a.pods_deleted}}},
          {"requests_refused_while_draining", a.requests_refused_draining},
          {"requests_killed_after_grace_period", a.requests_killed}};
}

nlohmann::json interval_json(const std::optional<stats::Interval>& i) {
  if (!i) return nullptr;
  return {{"mean", i->mean}, {"half_width_95", i->half_width}};
}

nlohmann::json steady_state_json(const SteadyState& s, const DeviceWords& words) {
  const SteadyEventTime& e = s.event_time;
  nlohmann::json event_time = interval_json(e.mean_s);
  if (e.mean_s) {
    event_time["relative_half_width_95"] = e.mean_s->relative_half_width();
    event_time["batches"] = e.mean_s->batches;
    event_time["batch_size"] = e.mean_s->batch_size;
  }
  return {{"warmup_cut", {{"events", e.warmup_cut}, {"until_s", e.warmup_end_s}, {"at_limit", e.warmup_at_limit}}},
          {"events_after_cut", e.series - e.warmup_cut},
          {"event_time_s", event_time},
          {"window_s", s.window_s},
          {"events_per_s", interval_json(s.events_per_s)},
          {std::string(words.key) + "_utilization", interval_json(s.device_utilization)}};
}

nlohmann::json jobs_json(const JobsSummary& s) {
  const auto& w = s.queue_wait_s;
  return {{"submitted", s.submitted},
          {"started", s.started},
          {"done", s.done},
          {"running_at_end", s.running_at_end},
          {"queued_at_end", s.queued_at_end},
          {"failed", s.failed},
          {"resubmitted", s.resubmitted},
          {"queue_wait_s", {{"mean", w.mean}, {"p50", w.p50}, {"p90", w.p90}, {"p99", w.p99}, {"max", w.max}}},
          {"slot_occupancy", s.slot_occupancy}};
}

nlohmann::json failures_json(const FailureSummary& f) {
  return {{"servers_failed", f.server_failures},
          {"servers_restarted", f.server_restarts},
          {"requests_failed", {{"unavailable", f.unavailable}, {"deadline_exceeded", f.deadline_exceeded}, {"cancelled", f.cancelled}}},
          {"requests_retried", f.retried},
          {"requests_failed_over", f.failed_over},
          {"events_on_cpu_after_failure", f.events_on_cpu},
          {"jobs_failed", f.jobs_failed},
          {"events_lost", f.events_lost},
          {"cpu_lost_s", f.cpu_lost_s}};
}

}  // namespace

Summary summarize(const SimulationResults& r) {
  Summary s;
  s.scenario = r.scenario;
  s.seed = r.seed;
  s.latency_quantile = r.latency_quantile;
  s.device_naming = r.device_naming;
  s.simulated_s = r.end_s;
  s.warmup_s = r.warmup_s;

  std::vector<double> times;
  for (const EventRecord& e : r.events) {
    if (e.start_s < r.warmup_s) continue;
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
  s.steady = steady_state(r);
  s.precision_stop = r.precision_stop;
  if (!times.empty()) {
    const double n = static_cast<double>(times.size());
    for (double* x : {&s.breakdown.cpu_s, &s.breakdown.preprocess_s, &s.breakdown.fallback_s, &s.breakdown.inference_s,
                      &s.breakdown.network_s, &s.breakdown.frontend_s, &s.breakdown.queue_s, &s.breakdown.gpu_s})
      *x /= n;
  }
  const double window = r.end_s - r.warmup_s;
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
    s.gpus.push_back({r.server_names[g.server], g.gpu, u});
    s.gpu_utilization += u;
  }
  if (!s.gpus.empty()) s.gpu_utilization /= static_cast<double>(s.gpus.size());

  const LinkRecord* busiest_private = nullptr;
  for (const LinkRecord& l : r.links) {
    if (l.shared) {
      s.links.push_back({l.name, l.bandwidth_Bps, l.bytes, r.end_s > 0 ? l.bytes / (l.bandwidth_Bps * r.end_s) : 0});
    } else if (!busiest_private || l.bytes / l.bandwidth_Bps > busiest_private->bytes / busiest_private->bandwidth_Bps) {
      busiest_private = &l;
    }
  }
  if (busiest_private) {
    const LinkRecord& l = *busiest_private;
    s.links.push_back({l.name + " [busiest worker NIC]", l.bandwidth_Bps, l.bytes,
                       r.end_s > 0 ? l.bytes / (l.bandwidth_Bps * r.end_s) : 0});
  }
  s.server_names = r.server_names;
  s.model_names = r.model_names;
  s.triton = r.triton;
  s.batches = r.batches_executed;
  s.mean_batch_items = r.batches_executed ? static_cast<double>(r.batch_units_executed) / r.batches_executed : 0;
  if (r.batch_system) s.jobs = summarize_jobs(r);
  if (r.failures_possible)
    s.failures = FailureSummary{r.server_failures, r.server_restarts, r.requests_failed_unavailable,
                                r.requests_failed_deadline, r.requests_failed_cancelled, r.requests_retried,
                                r.requests_failed_over, r.events_fallen_back, r.jobs_failed, r.events_lost,
                                r.cpu_lost_s};
  if (r.gated) s.gate = GateSummary{r.gate_checks, r.jobs_gated, r.gate_checks_without_metric, r.events_on_gate_fallback};
  if (r.scraped) s.usage = summarize_usage(r);
  if (r.connection_limited) s.connections = ConnectionSummary{r.connections, r.connections_refused, r.events_on_gate_fallback};
  return s;
}

nlohmann::json summary_to_json(const Summary& s) {
  using nlohmann::json;
  const DeviceWords words = device_words(s.device_naming);
  json gpus = json::array();
  for (const auto& g : s.gpus) gpus.push_back({{"server", g.server}, {words.key, g.gpu}, {"utilization", g.utilization}});
  json links = json::array();
  for (const auto& l : s.links)
    links.push_back({{"name", l.name},
                     {"bandwidth_bps", l.bandwidth_Bps * 8},
                     {"bytes", l.bytes},
                     {"utilization", l.utilization}});
  const auto& t = s.event_time;
  json document{
      {"scenario", s.scenario},
      {"seed", s.seed},
      {"latency_quantile", s.latency_quantile > 0 ? json(s.latency_quantile) : json(nullptr)},
      {"simulated_time_s", s.simulated_s},
      {"warmup_s", s.warmup_s},
      {"events",
       {{"count", t.count},
        {"incomplete", s.events_incomplete},
        {"time_s",
         {{"mean", t.mean}, {"stddev", t.stddev}, {"min", t.min}, {"p50", t.p50}, {"p90", t.p90}, {"p99", t.p99},
          {"max", t.max}}},
        {"breakdown_mean_s",
         {{"cpu", s.breakdown.cpu_s},
          {"preprocess", s.breakdown.preprocess_s},
          {"cpu_fallback", s.breakdown.fallback_s},
          {"inference", s.breakdown.inference_s},
          {"network", s.breakdown.network_s},
          {"frontend", s.breakdown.frontend_s},
          {"queue", s.breakdown.queue_s},
          {words.key, s.breakdown.gpu_s}}}}},
      {"steady_state", steady_state_json(s.steady, words)},
      {"throughput", {{"events_per_s", s.events_per_s}, {"requests_per_s", s.requests_per_s}}},
      {"requests",
       {{"sent", s.requests_sent},
        {"completed", s.requests_completed},
        {"rejected", s.requests_rejected},
        {"in_flight_at_end", s.requests_in_flight}}},
      {"batches", {{"count", s.batches}, {"mean_items", s.mean_batch_items}}},
      {words.key, {{"utilization", s.gpu_utilization}, {std::string("per_") + words.key, gpus}}},
      {"links", links},
      {"triton", triton_statistics_json(s)},
  };
  if (s.jobs) document["jobs"] = jobs_json(*s.jobs);
  if (s.gate)
    document["gate"] = {{"jobs_checked", s.gate->checks},
                        {"jobs_refused", s.gate->refused},
                        {"checked_without_metric", s.gate->without_metric},
                        {"events_on_cpu", s.gate->events_on_cpu}};
  if (s.connections)
    document["connections"] = {{"opened", s.connections->opened},
                               {"refused", s.connections->refused},
                               {"events_on_cpu", s.connections->events_on_cpu}};
  if (s.usage) {
    document["usage"] = usage_json(*s.usage, words);
    if (s.usage->autoscaling) document["autoscaling"] = autoscaling_json(*s.usage, words);
  }
  if (s.precision_stop)
    document["stopping"] = {{"relative_half_width_95", s.precision_stop->relative_half_width},
                            {"checks", s.precision_stop->checks},
                            {"reached", s.precision_stop->reached}};
  if (s.failures) {
    const FailureSummary& f = *s.failures;
    document["requests"]["failed"] = f.unavailable + f.deadline_exceeded + f.cancelled;
    document["failures"] = failures_json(f);
  }
  return document;
}

DeviceWords device_words_of(const nlohmann::json& summary) {
  return device_words(summary.contains("device") ? DeviceNaming::Device : DeviceNaming::Gpu);
}

namespace {

std::string format_steady_state(const Summary& s, const DeviceWords& words) {
  const SteadyEventTime& e = s.steady.event_time;
  std::string out = printf_string("steady state: MSER-5 cut the first %zu of them (to t = %.1f s)", e.warmup_cut,
                                  e.warmup_end_s);
  if (e.warmup_at_limit) out += "; the cut reached half of them: no steady state yet, simulate longer";
  if (e.mean_s) {
    out += printf_string("\n  mean %12.4g s ± %.3g s (95%%, ±%.2f%%; ", e.mean_s->mean, e.mean_s->half_width,
                         100 * e.mean_s->relative_half_width());
    out += e.mean_s->batch_size == 1
               ? printf_string("%zu independent events of one job alone)\n", e.mean_s->batches)
               : printf_string("%zu batch means of %zu events)\n", e.mean_s->batches, e.mean_s->batch_size);
  } else {
    out += printf_string("; %zu events after the cut, too few for an interval (20 batches of %zu)\n",
                         e.series - e.warmup_cut, e.min_batch_events);
  }
  if (s.steady.events_per_s) {
    out += printf_string("  throughput %.4g ± %.2g events/s", s.steady.events_per_s->mean, s.steady.events_per_s->half_width);
    if (s.steady.device_utilization)
      out += printf_string(", %s utilisation %.1f ± %.1f %%", words.label, 100 * s.steady.device_utilization->mean,
                           100 * s.steady.device_utilization->half_width);
    out += "\n";
  }
  if (s.precision_stop)
    out += printf_string("  stopping rule ±%g%%: %s after %d checks, at t = %.1f s\n",
                         100 * s.precision_stop->relative_half_width,
                         s.precision_stop->reached ? "reached" : "not reached", s.precision_stop->checks, s.simulated_s);
  return out;
}

}  // namespace

std::string format_summary(const Summary& s) {
  const DeviceWords words = device_words(s.device_naming);
  std::string out;
  char line[256];
  auto add = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out += line;
  };
  const auto& t = s.event_time;
  add("scenario %s (seed %llu): %.1f s simulated", s.scenario.c_str(), static_cast<unsigned long long>(s.seed),
      s.simulated_s);
  if (s.warmup_s > 0) add(", statistics after a %.1f s warm-up", s.warmup_s);
  if (s.latency_quantile > 0) add(", calibrated kernel latencies at the %g quantile of their bands", s.latency_quantile);
  add("\n\nper-event time over %zu events", t.count);
  if (s.events_incomplete) add(" (%lld cut off at the end)", static_cast<long long>(s.events_incomplete));
  add("\n  mean %12.3f s   p50 %12.3f s   p90 %12.3f s   p99 %12.3f s\n", t.mean, t.p50, t.p90, t.p99);
  add("  min  %12.3f s   max %12.3f s   stddev %9.3f s\n", t.min, t.max, t.stddev);
  out += format_steady_state(s, words);
  add("\nmean breakdown per event\n");
  add("  cpu (non-ML modules)  %12.3f s\n", s.breakdown.cpu_s);
  add("  preprocessing         %12.3f s\n", s.breakdown.preprocess_s);
  if (s.breakdown.fallback_s > 0) add("  inference on CPU      %12.3f s\n", s.breakdown.fallback_s);
  add("  inference (wall)      %12.3f s   of which, summed over requests:\n", s.breakdown.inference_s);
  add("    network             %12.3f s\n", s.breakdown.network_s);
  if (s.breakdown.frontend_s > 0) add("    server frontend     %12.3f s\n", s.breakdown.frontend_s);
  add("    server queue        %12.3f s\n", s.breakdown.queue_s);
  add("    %-19s %12.3f s\n", words.key, s.breakdown.gpu_s);
  add("\nthroughput  %.4f events/s   %.2f requests/s\n", s.events_per_s, s.requests_per_s);
  add("requests    %lld sent, %lld completed, %lld rejected, %lld in flight at the end\n",
      static_cast<long long>(s.requests_sent), static_cast<long long>(s.requests_completed),
      static_cast<long long>(s.requests_rejected), static_cast<long long>(s.requests_in_flight));
  if (s.failures) {
    const FailureSummary& f = *s.failures;
    add("failures    %lld requests failed (%lld unavailable, %lld past the deadline, %lld cancelled), %lld retried, "
        "%lld failed over\n",
        static_cast<long long>(f.unavailable + f.deadline_exceeded + f.cancelled), static_cast<long long>(f.unavailable),
        static_cast<long long>(f.deadline_exceeded), static_cast<long long>(f.cancelled),
        static_cast<long long>(f.retried), static_cast<long long>(f.failed_over));
    add("            %lld server failures, %lld restarts; %lld events fell back to the CPU; %lld job runs failed, "
        "losing %lld events and %.1f core-hours\n",
        static_cast<long long>(f.server_failures), static_cast<long long>(f.server_restarts),
        static_cast<long long>(f.events_on_cpu), static_cast<long long>(f.jobs_failed),
        static_cast<long long>(f.events_lost), f.cpu_lost_s / 3600);
  }
  if (s.gate)
    add("gate        %lld of %lld starting jobs refused (run on their CPU); %lld checked before the metric had a value\n",
        static_cast<long long>(s.gate->refused), static_cast<long long>(s.gate->checks),
        static_cast<long long>(s.gate->without_metric));
  if (s.connections)
    add("connections %lld opened, %lld refused by the proxy's token bucket (those jobs run on their CPU)\n",
        static_cast<long long>(s.connections->opened), static_cast<long long>(s.connections->refused));
  if (s.usage && s.usage->autoscaling) {
    const AutoscalingTotals& a = *s.usage->autoscaling;
    add("autoscaler  %.2f ready replicas on average (at most %d), %lld pods created, %lld deleted; %lld requests "
        "refused while draining, %lld killed after the grace period\n",
        s.usage->mean_ready_replicas, a.max_ready, static_cast<long long>(a.pods_created),
        static_cast<long long>(a.pods_deleted), static_cast<long long>(a.requests_refused_draining),
        static_cast<long long>(a.requests_killed));
  }
  if (s.usage) {
    add("usage       %.2f %s-hours, %.1f core-hours", s.usage->gpu_hours, words.label, s.usage->core_hours);
    if (s.usage->cost_per_event) add("; %.6g %s per event", *s.usage->cost_per_event, s.usage->currency->c_str());
    add("\n");
  }
  if (s.batches) add("batches     %lld executed, %.1f items on average\n", static_cast<long long>(s.batches), s.mean_batch_items);
  if (s.jobs) {
    const JobsSummary& j = *s.jobs;
    add("\njobs        %lld submitted, %lld done, %lld running and %lld queued at the end; cores %.1f %% occupied\n",
        static_cast<long long>(j.submitted), static_cast<long long>(j.done), static_cast<long long>(j.running_at_end),
        static_cast<long long>(j.queued_at_end), 100 * j.slot_occupancy);
    add("queue wait  mean %.3f s   p50 %.3f s   p90 %.3f s   max %.3f s\n", j.queue_wait_s.mean, j.queue_wait_s.p50,
        j.queue_wait_s.p90, j.queue_wait_s.max);
  }
  if (!s.gpus.empty()) {
    add("\n%s utilisation  mean %.1f %%", words.title, 100 * s.gpu_utilization);
    const std::size_t shown = std::min<std::size_t>(s.gpus.size(), 8);
    for (std::size_t i = 0; i < shown; ++i)
      add("%s %s/%d %.1f %%", i ? "," : "  (", s.gpus[i].server.c_str(), s.gpus[i].gpu, 100 * s.gpus[i].utilization);
    add("%s)\n", s.gpus.size() > shown ? ", ..." : "");
  }
  if (!s.links.empty()) {
    add("\nlink utilisation (mean over the run)\n");
    for (const auto& l : s.links)
      add("  %-50s %10s  %6.1f %%  %.4g GB\n", l.name.c_str(), units::format_bandwidth(l.bandwidth_Bps).c_str(),
          100 * l.utilization, l.bytes / 1e9);
  }
  if (!s.triton.empty()) out += "\nTriton statistics (whole run)\n" + format_triton_summary(s);
  return out;
}

}  // namespace sonicsim
