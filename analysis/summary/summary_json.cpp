#include "analysis/summary/summary_json.hpp"

#include "analysis/summary/json_fields.hpp"

namespace sonicsim {
namespace {

// Each function lists one part of summary.json: its keys and the members they hold, for both
// directions (json_fields.hpp). `Io` is JsonWriter or JsonReader; `S` a section, const when writing.

template <class Io, class S>
void interval_fields(Io& io, S& i) {
  io.field("mean", i.mean);
  io.field("half_width_95", i.half_width);
}

template <class Io, class S>
void steady_event_time_fields(Io& io, S& i) {
  interval_fields(io, i);
  io.derived("relative_half_width_95", [&] { return i.relative_half_width(); });
  io.field("batches", i.batches);
  io.field("batch_size", i.batch_size);
}

template <class Io, class S>
void steady_state_fields(Io& io, S& s) {
  io.object("warmup_cut", [&](auto& cut) {
    cut.field("events", s.warmup_cut_events);
    cut.field("until_s", s.warmup_until_s);
    cut.field("at_limit", s.warmup_at_limit);
  });
  io.field("events_after_cut", s.events_after_cut);
  io.nullable("event_time_s", s.event_time_s, [](auto& t, auto& i) { steady_event_time_fields(t, i); });
  io.field("window_s", s.window_s);
  io.nullable("events_per_s", s.events_per_s, [](auto& t, auto& i) { interval_fields(t, i); });
  io.nullable("{d}_utilization", s.device_utilization, [](auto& t, auto& i) { interval_fields(t, i); });
  io.section("load_cycles", s.cycles, [](auto& c, auto& cycles) {
    c.field("cycle_s", cycles.cycle_s);
    c.field("count", cycles.cycles);
    c.field("cut", cycles.cut);
  });
}

template <class Io, class S>
void events_fields(Io& io, S& s) {
  io.field("count", s.event_time.count);
  io.field("incomplete", s.events_incomplete);
  io.object("time_s", [&](auto& t) {
    t.field("mean", s.event_time.mean);
    t.field("stddev", s.event_time.stddev);
    t.field("min", s.event_time.min);
    t.field("p50", s.event_time.p50);
    t.field("p90", s.event_time.p90);
    t.field("p99", s.event_time.p99);
    t.field("max", s.event_time.max);
  });
  io.object("breakdown_mean_s", [&](auto& b) {
    b.field("cpu", s.breakdown.cpu_s);
    b.field("preprocess", s.breakdown.preprocess_s);
    b.field("cpu_fallback", s.breakdown.fallback_s);
    b.field("inference", s.breakdown.inference_s);
    b.field("network", s.breakdown.network_s);
    b.field("frontend", s.breakdown.frontend_s);
    b.field("queue", s.breakdown.queue_s);
    b.field("{d}", s.breakdown.gpu_s);
  });
}

template <class Io, class S>
void duration_fields(Io& io, S& d) {
  io.field("count", d.count);
  io.field("ns", d.ns);
}

template <class Io, class S>
void triton_model_fields(Io& io, S& m) {
  const nlohmann::json never_used = {{"count", 0u}, {"ns", 0u}};
  io.field("name", m.name);
  io.constant("version", "1");
  io.field("last_inference", m.last_inference_ms);
  io.field("inference_count", m.inference_count);
  io.field("execution_count", m.execution_count);
  io.object("inference_stats", [&](auto& stats) {
    stats.object("success", [&](auto& d) { duration_fields(d, m.success); });
    stats.object("fail", [&](auto& d) { duration_fields(d, m.fail); });
    stats.object("queue", [&](auto& d) { duration_fields(d, m.queue); });
    stats.object("compute_input", [&](auto& d) { duration_fields(d, m.compute_input); });
    stats.object("compute_infer", [&](auto& d) { duration_fields(d, m.compute_infer); });
    stats.object("compute_output", [&](auto& d) { duration_fields(d, m.compute_output); });
    stats.constant("cache_hit", never_used);
    stats.constant("cache_miss", never_used);
  });
  io.list("batch_stats", m.batch_stats, [&](auto& b, auto& batch) {
    b.field("batch_size", batch.batch_size);
    b.object("compute_input", [&](auto& d) { duration_fields(d, batch.compute_input); });
    b.object("compute_infer", [&](auto& d) { duration_fields(d, batch.compute_infer); });
    b.object("compute_output", [&](auto& d) { duration_fields(d, batch.compute_output); });
  });
  io.field("pending_request_count", m.pending_requests);
}

template <class Io, class S>
void jobs_fields(Io& io, S& j) {
  io.field("submitted", j.submitted);
  io.field("started", j.started);
  io.field("done", j.done);
  io.field("running_at_end", j.running_at_end);
  io.field("queued_at_end", j.queued_at_end);
  io.field("failed", j.failed);
  io.field("resubmitted", j.resubmitted);
  io.object("queue_wait_s", [&](auto& w) {
    w.field("mean", j.queue_wait_s.mean);
    w.field("p50", j.queue_wait_s.p50);
    w.field("p90", j.queue_wait_s.p90);
    w.field("p99", j.queue_wait_s.p99);
    w.field("max", j.queue_wait_s.max);
  });
  io.field("slot_occupancy", j.slot_occupancy);
  io.field("peak_running", j.peak_running);
}

template <class Io, class S>
void job_threads_fields(Io& io, S& t) {
  io.field("threads", t.threads);
  io.field("streams", t.streams);
  io.field("runs", t.runs);
  io.object("events_per_s_per_job", [&](auto& e) {
    e.field("mean", t.events_per_s_mean);
    e.field("min", t.events_per_s_min);
    e.field("max", t.events_per_s_max);
  });
  io.field("cpu_efficiency", t.cpu_efficiency);
  io.object("cpu_efficiency_per_job", [&](auto& c) {
    c.field("mean", t.cpu_efficiency_mean);
    c.field("min", t.cpu_efficiency_min);
    c.field("max", t.cpu_efficiency_max);
  });
  io.field("thread_wait_mean_s", t.thread_wait_mean_s);
}

template <class Io, class S>
void failures_fields(Io& io, S& f) {
  io.field("servers_failed", f.server_failures);
  io.field("servers_restarted", f.server_restarts);
  io.object("requests_failed", [&](auto& r) {
    r.field("unavailable", f.unavailable);
    r.field("deadline_exceeded", f.deadline_exceeded);
    r.field("cancelled", f.cancelled);
  });
  io.field("requests_retried", f.retried);
  io.field("requests_failed_over", f.failed_over);
  io.field("events_on_cpu_after_failure", f.events_on_cpu);
  io.field("jobs_failed", f.jobs_failed);
  io.field("events_lost", f.events_lost);
  io.field("cpu_lost_s", f.cpu_lost_s);
}

template <class Io, class S>
void gate_fields(Io& io, S& g) {
  io.field("jobs_checked", g.checks);
  io.field("jobs_refused", g.refused);
  io.field("checked_without_metric", g.without_metric);
  io.field("events_on_cpu", g.events_on_cpu);
  io.field("threshold_ms", g.threshold_ms);
}

template <class Io, class S>
void connections_fields(Io& io, S& c) {
  io.field("opened", c.opened);
  io.field("refused", c.refused);
  io.field("events_on_cpu", c.events_on_cpu);
}

template <class Io, class S>
void usage_fields(Io& io, S& u) {
  io.field("{d}_hours", u.gpu_hours);
  io.field("core_hours", u.core_hours);
  io.field("{d}_hours_per_1000_events", u.gpu_hours_per_1000_events);
  io.field("currency", u.currency);
  io.field("cost_per_event", u.cost_per_event);
}

template <class Io, class S>
void autoscaling_fields(Io& io, S& a) {
  io.field("mean_ready_replicas", a.mean_ready_replicas);
  io.field("mean_{ds}_held", a.mean_gpus_held);
  io.field("{d}_utilization_in_service", a.gpu_utilization_in_service);
  io.field("max_ready_replicas", a.max_ready_replicas);
  io.object("pods", [&](auto& p) {
    p.field("created", a.pods_created);
    p.field("became_ready", a.pods_ready);
    p.field("deleted", a.pods_deleted);
  });
  io.field("requests_refused_while_draining", a.requests_refused_draining);
  io.field("requests_killed_after_grace_period", a.requests_killed);
  io.field("threshold", a.threshold);
}

template <class Io, class S>
void stopping_fields(Io& io, S& p) {
  io.field("relative_half_width_95", p.relative_half_width);
  io.field("checks", p.checks);
  io.field("reached", p.reached);
  io.field("load_from_s", p.load_from_s);
  io.field("drained", p.drained);
  io.section("load_cycles", p.cycles, [](auto& c, auto& cycles) {
    c.field("cycle_s", cycles.cycle_s);
    c.field("repeats_from_s", cycles.repeats_from_s);
    c.field("repeats_until_s", cycles.repeats_until_s);
  });
}

template <class Io, class S>
void unknowns_fields(Io& io, S& u) {
  io.object("design", [&](auto& d) {
    d.field("method", u.design);
    d.field("seed", u.design_seed);
    d.field("runs", u.runs);
    d.field("batches", u.batches);
    d.field("stopped_by", u.stopped);
    d.field("unsound_runs", u.unsound_runs);
    d.field("unsound_reason", u.unsound_reason);
  });
  io.list("unknowns", u.unknowns, [](auto& e, auto& unknown) {
    e.field("pointer", unknown.pointer);
    e.field("declared", unknown.declared);
    e.field("why", unknown.why);
  });
  io.list("outputs", u.outputs, [](auto& o, auto& band) {
    o.field("output", band.output);
    o.field("unit", band.unit);
    o.field("median", band.median);
    o.field("p5", band.p5);
    o.field("p95", band.p95);
    o.list("first_order_index", band.first_order_index, [](auto& i, auto& index) {
      i.field("pointer", index.pointer);
      i.field("index", index.index);
    });
  });
  io.list("runs", u.run_records, [](auto& r, auto& run) {
    r.array("values", run.values);
    r.array("outputs", run.outputs);
    r.field("unsound", run.unsound);
  });
}

// The whole document. (nlohmann::json keeps an object's keys sorted: the order here is free.)
template <class Io, class S>
void summary_fields(Io& io, S& s) {
  io.field("scenario", s.scenario);
  io.field("seed", s.seed);
  io.field("latency_quantile", s.latency_quantile);
  io.field("simulated_time_s", s.simulated_s);
  io.field("warmup_s", s.warmup_s);
  io.object("events", [&](auto& e) { events_fields(e, s); });
  io.object("steady_state", [&](auto& steady) { steady_state_fields(steady, s.steady); });
  io.object("throughput", [&](auto& t) {
    t.field("events_per_s", s.events_per_s);
    t.field("requests_per_s", s.requests_per_s);
  });
  io.object("requests", [&](auto& r) {
    r.field("sent", s.requests_sent);
    r.field("completed", s.requests_completed);
    r.field("rejected", s.requests_rejected);
    r.field("in_flight_at_end", s.requests_in_flight);
    if (s.failures) r.derived("failed", [&] { return s.failures->requests_failed(); });
  });
  io.object("batches", [&](auto& b) {
    b.field("count", s.batches);
    b.field("mean_items", s.mean_batch_items);
  });
  io.object("{d}", [&](auto& d) {
    d.field("utilization", s.gpu_utilization);
    d.list("per_{d}", s.gpus, [](auto& g, auto& gpu) {
      g.field("server", gpu.server);
      g.field("{d}", gpu.gpu);
      g.field("utilization", gpu.utilization);
    });
  });
  io.list("links", s.links, [](auto& l, auto& link) {
    l.field("name", link.name);
    l.field("bandwidth_bps", link.bandwidth_bps);
    l.field("bytes", link.bytes);
    l.field("utilization", link.utilization);
  });
  io.object("triton", [&](auto& t) {
    t.list("servers", s.triton, [](auto& server, auto& stats) {
      server.field("server", stats.server);
      server.list("model_stats", stats.models, [](auto& m, auto& model) { triton_model_fields(m, model); });
    });
  });
  io.section("jobs", s.jobs, [](auto& j, auto& jobs) { jobs_fields(j, jobs); });
  io.section("job_threads", s.job_threads, [](auto& t, auto& threads) { job_threads_fields(t, threads); });
  io.section("failures", s.failures, [](auto& f, auto& failures) { failures_fields(f, failures); });
  io.section("gate", s.gate, [](auto& g, auto& gate) { gate_fields(g, gate); });
  io.section("connections", s.connections, [](auto& c, auto& connections) { connections_fields(c, connections); });
  io.section("usage", s.usage, [](auto& u, auto& usage) { usage_fields(u, usage); });
  io.section("autoscaling", s.autoscaling, [](auto& a, auto& autoscaling) { autoscaling_fields(a, autoscaling); });
  io.section("stopping", s.precision_stop, [](auto& p, auto& stop) { stopping_fields(p, stop); });
  io.section("declared_unknowns", s.declared_unknowns, [](auto& u, auto& unknowns) { unknowns_fields(u, unknowns); });
}

// A summary names its accelerators in its keys: a "device" section instead of "gpu".
DeviceNaming naming_of(const nlohmann::json& summary) {
  return summary.contains(device_key("{d}", DeviceNaming::Device)) ? DeviceNaming::Device : DeviceNaming::Gpu;
}

}  // namespace

nlohmann::json summary_to_json(const Summary& summary) {
  nlohmann::json document = nlohmann::json::object();
  JsonWriter writer(document, summary.device_naming);
  summary_fields(writer, summary);
  return document;
}

Summary summary_from_json(const nlohmann::json& document, const std::string& name) {
  if (!document.is_object()) throw InputError(name, "", "expected a summary (an object)");
  Summary summary;
  summary.device_naming = naming_of(document);
  JsonReader reader(document, summary.device_naming, name);
  summary_fields(reader, summary);
  return summary;
}

nlohmann::json unknowns_to_json(const UnknownsSummary& unknowns) {
  nlohmann::json document = nlohmann::json::object();
  JsonWriter writer(document, DeviceNaming::Gpu);
  unknowns_fields(writer, unknowns);
  return document;
}

}  // namespace sonicsim
