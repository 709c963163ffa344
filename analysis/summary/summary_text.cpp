#include "analysis/summary/summary_text.hpp"

#include <algorithm>

#include "analysis/triton/triton_report.hpp"
#include "models/io/text_format.hpp"
#include "models/io/units.hpp"

namespace sonicsim {

namespace {

bool serves_models(const std::vector<TritonServerStatistics>& servers) {
  return std::any_of(servers.begin(), servers.end(), [](const auto& s) { return !s.models.empty(); });
}

std::string format_steady_state(const Summary& s, const DeviceWords& words, std::size_t min_batch_events) {
  const SteadySummary& e = s.steady;
  std::string out = printf_string("steady state: MSER-5 cut the first %zu of them (to t = %.1f s)", e.warmup_cut_events,
                                  e.warmup_until_s);
  if (e.warmup_at_limit) out += "; the cut reached half of them: no steady state yet, simulate longer";
  if (const auto& mean = e.event_time_s) {
    out += printf_string("\n  mean %12.4g s ± %.3g s (95%%, ±%.2f%%; ", mean->mean, mean->half_width,
                         100 * mean->relative_half_width());
    out += mean->batch_size == 1 ? printf_string("%zu independent events of one job alone)\n", mean->batches)
                                 : printf_string("%zu batch means of %zu events)\n", mean->batches, mean->batch_size);
  } else {
    out += printf_string("; %zu events after the cut, too few for an interval (20 batches of %zu)\n",
                         e.events_after_cut, min_batch_events);
  }
  if (s.steady.events_per_s) {
    out += printf_string("  throughput %.4g ± %.2g events/s", s.steady.events_per_s->mean,
                         s.steady.events_per_s->half_width);
    if (s.steady.device_utilization)
      out += printf_string(", %s utilisation %.1f ± %.1f %%", words.label, 100 * s.steady.device_utilization->mean,
                           100 * s.steady.device_utilization->half_width);
    out += "\n";
  }
  if (const auto& stop = s.precision_stop) {
    out += printf_string("  stopping rule ±%g%%: %s after %d checks, at t = %.1f s", 100 * stop->relative_half_width,
                         stop->reached ? "reached" : "not reached", stop->checks, s.simulated_s);
    if (stop->load_from_s > 0)
      out += printf_string("; statistics from t = %.1f s, when every job had been submitted", stop->load_from_s);
    if (stop->drained)
      out += "; the workload drained (its running jobs fell) or ended first, so the run went to its end";
    out += "\n";
  }
  return out;
}

}  // namespace

std::string format_summary(const Summary& s, std::size_t min_batch_events) {
  const DeviceWords words = device_words(s.device_naming);
  std::string out;
  const auto& t = s.event_time;
  out += printf_string("scenario %s (seed %llu): %.1f s simulated", s.scenario.c_str(),
                       static_cast<unsigned long long>(s.seed), s.simulated_s);
  if (s.warmup_s > 0) out += printf_string(", statistics after a %.1f s warm-up", s.warmup_s);
  if (s.latency_quantile)
    out += printf_string(", calibrated kernel latencies at the %g quantile of their bands", *s.latency_quantile);
  if (s.network) out += printf_string("\nupload fast path: %s", s.network->fast_path.c_str());
  out += printf_string("\n\nper-event time over %zu events", t.count);
  if (s.events_incomplete)
    out += printf_string(" (%lld cut off at the end)", static_cast<long long>(s.events_incomplete));
  out += printf_string("\n  mean %12.3f s   p50 %12.3f s   p90 %12.3f s   p99 %12.3f s\n", t.mean, t.p50, t.p90, t.p99);
  out += printf_string("  min  %12.3f s   max %12.3f s   stddev %9.3f s\n", t.min, t.max, t.stddev);
  out += format_steady_state(s, words, min_batch_events);
  out += printf_string("\nmean breakdown per event\n");
  out += printf_string("  cpu (non-ML modules)  %12.3f s\n", s.breakdown.cpu_s);
  out += printf_string("  preprocessing         %12.3f s\n", s.breakdown.preprocess_s);
  if (s.breakdown.fallback_s > 0) out += printf_string("  inference on CPU      %12.3f s\n", s.breakdown.fallback_s);
  out += printf_string("  inference (wall)      %12.3f s   of which, summed over requests:\n", s.breakdown.inference_s);
  out += printf_string("    network             %12.3f s\n", s.breakdown.network_s);
  if (s.breakdown.frontend_s > 0) out += printf_string("    server frontend     %12.3f s\n", s.breakdown.frontend_s);
  out += printf_string("    server queue        %12.3f s\n", s.breakdown.queue_s);
  out += printf_string("    %-19s %12.3f s\n", words.key, s.breakdown.gpu_s);
  out += printf_string("\nthroughput  %.4f events/s   %.2f requests/s\n", s.events_per_s, s.requests_per_s);
  out += printf_string("requests    %lld sent, %lld completed, %lld rejected, %lld in flight at the end\n",
                       static_cast<long long>(s.requests_sent), static_cast<long long>(s.requests_completed),
                       static_cast<long long>(s.requests_rejected), static_cast<long long>(s.requests_in_flight));
  if (s.failures) {
    const FailureSummary& f = *s.failures;
    out += printf_string(
        "failures    %lld requests failed (%lld unavailable, %lld past the deadline, %lld cancelled), %lld retried, "
        "%lld failed over\n",
        static_cast<long long>(f.unavailable + f.deadline_exceeded + f.cancelled),
        static_cast<long long>(f.unavailable), static_cast<long long>(f.deadline_exceeded),
        static_cast<long long>(f.cancelled), static_cast<long long>(f.retried), static_cast<long long>(f.failed_over));
    out += printf_string(
        "            %lld server failures, %lld restarts; %lld events fell back to the CPU; %lld job runs failed, "
        "losing %lld events and %.1f core-hours\n",
        static_cast<long long>(f.server_failures), static_cast<long long>(f.server_restarts),
        static_cast<long long>(f.events_on_cpu), static_cast<long long>(f.jobs_failed),
        static_cast<long long>(f.events_lost), f.cpu_lost_s / 3600);
  }
  if (s.gate)
    out += printf_string(
        "gate        %lld of %lld starting jobs refused (run on their CPU); %lld checked before the metric had a "
        "value\n",
        static_cast<long long>(s.gate->refused), static_cast<long long>(s.gate->checks),
        static_cast<long long>(s.gate->without_metric));
  if (s.connections)
    out += printf_string(
        "connections %lld opened, %lld refused by the proxy's token bucket (those jobs run on their CPU)\n",
        static_cast<long long>(s.connections->opened), static_cast<long long>(s.connections->refused));
  if (s.autoscaling) {
    const AutoscalingSummary& a = *s.autoscaling;
    out += printf_string(
        "autoscaler  %.2f ready replicas on average (at most %d), %lld pods created, %lld deleted; %lld requests "
        "refused while draining, %lld killed after the grace period\n",
        a.mean_ready_replicas, a.max_ready_replicas, static_cast<long long>(a.pods_created),
        static_cast<long long>(a.pods_deleted), static_cast<long long>(a.requests_refused_draining),
        static_cast<long long>(a.requests_killed));
  }
  if (s.usage) {
    out += printf_string("usage       %.2f %s-hours, %.1f core-hours", s.usage->gpu_hours, words.label,
                         s.usage->core_hours);
    if (s.usage->cost_per_event)
      out += printf_string("; %.6g %s per event", *s.usage->cost_per_event, s.usage->currency->c_str());
    out += printf_string("\n");
  }
  if (s.batches)
    out += printf_string("batches     %lld executed, %.1f items on average\n", static_cast<long long>(s.batches),
                         s.mean_batch_items);
  if (s.jobs) {
    const JobsSummary& j = *s.jobs;
    out += printf_string(
        "\njobs        %lld submitted, %lld done, %lld running and %lld queued at the end; cores %.1f %% occupied\n",
        static_cast<long long>(j.submitted), static_cast<long long>(j.done), static_cast<long long>(j.running_at_end),
        static_cast<long long>(j.queued_at_end), 100 * j.slot_occupancy);
    out += printf_string("queue wait  mean %.3f s   p50 %.3f s   p90 %.3f s   max %.3f s\n", j.queue_wait_s.mean,
                         j.queue_wait_s.p50, j.queue_wait_s.p90, j.queue_wait_s.max);
  }
  if (s.job_threads) {
    const JobThreadsSummary& t = *s.job_threads;
    out += printf_string(
        "\nper job     %d threads, %d streams: %.4g events/s (%.4g to %.4g over %lld runs); CPU efficiency %.1f %% "
        "(%.1f to %.1f %%)\n",
        t.threads, t.streams, t.events_per_s_mean, t.events_per_s_min, t.events_per_s_max,
        static_cast<long long>(t.runs), 100 * t.cpu_efficiency, 100 * t.cpu_efficiency_min, 100 * t.cpu_efficiency_max);
    out += printf_string("            waits for a thread after ExternalWork: %.3f s per event\n", t.thread_wait_mean_s);
  }
  if (!s.gpus.empty()) {
    if (s.autoscaling)
      out += printf_string(
          "\n%s utilisation  %.1f %% of the %s-seconds in service (pods ready or draining); the pool "
          "of %zu: mean %.1f %%",
          words.title, 100 * s.autoscaling->gpu_utilization_in_service, words.label, s.gpus.size(),
          100 * s.gpu_utilization);
    else
      out += printf_string("\n%s utilisation  mean %.1f %%", words.title, 100 * s.gpu_utilization);
    const std::size_t shown = std::min<std::size_t>(s.gpus.size(), 8);
    for (std::size_t i = 0; i < shown; ++i)
      out += printf_string("%s %s/%d %.1f %%", i ? "," : "  (", s.gpus[i].server.c_str(), s.gpus[i].gpu,
                           100 * s.gpus[i].utilization);
    out += printf_string("%s)\n", s.gpus.size() > shown ? ", ..." : "");
  }
  if (!s.links.empty()) {
    out += printf_string("\nlink utilisation (mean over the run)\n");
    for (const auto& l : s.links)
      out += printf_string("  %-50s %10s  %6.1f %%  %.4g GB\n", l.name.c_str(),
                           units::format_bandwidth(l.bandwidth_bps / 8).c_str(), 100 * l.utilization, l.bytes / 1e9);
  }
  if (serves_models(s.triton)) out += "\nTriton statistics (whole run)\n" + format_triton_summary(s.triton);
  return out;
}

}  // namespace sonicsim
