#include "models/scenario/reader/workload/workload_reader.hpp"

#include <string>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/jobs/job_trace.hpp"
#include "models/scenario/reader/request_path_reader.hpp"
#include "models/scenario/reader/workload/module_graph_reader.hpp"
#include "models/scenario/reader/workload/module_reader.hpp"
#include "models/scenario/reader/workload/modules_from_reader.hpp"

namespace sonicsim {
namespace {

// A pattern's name gives its kind; the keys beside "pattern" give its parameters (read_keys).
constexpr Choice<StartPattern> kStartPatterns[]{{"all_at_once", StartAllAtOnce{}},
                                                {"staggered", StartStaggered{}},
                                                {"spread", StartSpread{}},
                                                {"waves", StartWaves{}}};

// A batch system submits on any start pattern's schedule, or on its own.
const std::vector<Choice<SubmitPattern>>& submit_patterns() {
  static const std::vector<Choice<SubmitPattern>> table = [] {
    std::vector<Choice<SubmitPattern>> patterns;
    for (const auto& [name, start] : kStartPatterns)
      patterns.push_back({name, std::visit([](const auto& p) -> SubmitPattern { return p; }, start)});
    patterns.push_back({"poisson", SubmitPoisson{}});
    patterns.push_back({"trace", SubmitTrace{}});
    return patterns;
  }();
  return table;
}

void read_keys(const JsonNode& node, StartAllAtOnce&) { node.allow_only({"pattern"}); }

void read_keys(const JsonNode& node, StartStaggered& p) {
  node.allow_only({"pattern", "interval"});
  p.interval_s = node.at("interval").duration_s();
}

void read_keys(const JsonNode& node, StartSpread& p) {
  node.allow_only({"pattern", "window"});
  p.window_s = node.at("window").duration_s();
}

void read_keys(const JsonNode& node, StartWaves& p) {
  node.allow_only({"pattern", "jobs_per_wave", "period"});
  p.jobs_per_wave = node.at("jobs_per_wave").int_at_least(1);
  p.period_s = node.at("period").duration_s();
}

void read_keys(const JsonNode& node, SubmitPoisson& p) {
  node.allow_only({"pattern", "mean_interval"});
  p.mean_interval_s = node.at("mean_interval").positive_duration_s();
}

void read_keys(const JsonNode& node, SubmitTrace& trace) {
  node.allow_only({"pattern", "file"});
  trace.file = path_beside(node.file(), node.at("file").string());
  for (const TracedJob& job : read_job_trace(trace.file)) {
    trace.submit_s.push_back(job.submit_s);
    trace.events.push_back(job.events);
  }
}

template <class Pattern, class Table>
Pattern read_pattern(const JsonNode& node, const Table& table) {
  Pattern pattern = node.at("pattern").choice(table);
  std::visit([&node](auto& p) { read_keys(node, p); }, pattern);
  return pattern;
}

constexpr int kMostEvents = static_cast<int>(limits::kMaxEvents);

EventCount read_uniform_events(const JsonNode& node) {
  node.allow_only({"distribution", "min", "max"});
  UniformCount count{node.at("min").int_in(1, kMostEvents), node.at("max").int_in(1, kMostEvents)};
  if (count.max < count.min) node.at("max").fail("expected a maximum no smaller than the minimum");
  return count;
}

EventCount read_empirical_events(const JsonNode& node) {
  node.allow_only({"distribution", "samples"});
  EmpiricalCount count;
  for (const JsonNode& n : node.at("samples").non_empty_elements()) count.samples.push_back(n.int_in(1, kMostEvents));
  return count;
}

constexpr Choice<EventCount (*)(const JsonNode&)> kEventCounts[]{{"uniform", read_uniform_events},
                                                                 {"empirical", read_empirical_events}};

EventCount read_event_count(const JsonNode& node) {
  if (!node.raw().is_object()) return node.int_in(1, kMostEvents);
  return node.at("distribution").choice(kEventCounts, "events per job")(node);
}

// CMSSW's process options (docs/reference/cmssw-sonic.md §1; FWCore/Framework/src/EventProcessor.cc, the
// EventProcessor constructor): numberOfStreams 0 means as many streams as threads, which a scenario
// says by leaving "streams" out. numberOfThreads 0 (one per core of the machine, edm::setNThreads)
// is not taken: a job's node is not known before it starts, so the count is given.
// Keys given here override what a FastTimerService report's job had (modules_from's threads and streams).
void read_threads(const JsonNode& node, Workload& w) {
  if (auto threads = node.find("threads")) {
    w.threads = threads->int_in(1, limits::kMaxCoresPerNode);
    w.streams = w.threads;
    w.threads_or_streams_given = true;
  }
  if (auto streams = node.find("streams")) {
    w.streams = streams->int_in(1, limits::kMaxStreamsPerJob);
    w.threads_or_streams_given = true;
  }
}

}  // namespace

Workload read_workload(const JsonNode& node, const std::vector<ModelSpec>& models) {
  node.allow_only({"jobs", "events_per_job", "duration", "warmup", "start", "submit", "resubmit", "threads", "streams",
                   "modules", "modules_from", "protocol"});
  Workload w;
  w.protocol = read_client_protocol(node.find("protocol"));
  const auto start = node.find("start");
  const auto submit = node.find("submit");
  if (start.has_value() == submit.has_value())
    node.fail(
        "expected exactly one of \"start\" (a static farm: one job per core) and \"submit\" (jobs from a batch "
        "system, queued for free cores)");
  if (start) w.start = read_pattern<StartPattern>(*start, kStartPatterns);
  if (submit) w.submit = read_pattern<SubmitPattern>(*submit, submit_patterns());
  const auto* trace = w.submit ? std::get_if<SubmitTrace>(&*w.submit) : nullptr;
  if (trace && !node.has("jobs")) {
    w.jobs = static_cast<int>(trace->submit_s.size());
  } else {
    const JsonNode jobs = node.at("jobs");
    w.jobs = w.submit ? jobs.int_in(1, static_cast<int>(limits::kMaxSubmittedJobs)) : jobs.int_at_least(1);
    if (trace && static_cast<std::size_t>(w.jobs) > trace->submit_s.size())
      jobs.fail("expected at most the " + std::to_string(trace->submit_s.size()) + " jobs of the trace " + trace->file);
  }
  const auto events = node.find("events_per_job");
  const auto duration = node.find("duration");
  if (events.has_value() == duration.has_value())
    node.fail("expected exactly one of \"events_per_job\" and \"duration\"");
  if (events) w.events_per_job = read_event_count(*events);
  if (duration) w.duration_s = duration->positive_duration_s();
  if (auto resubmit = node.find("resubmit")) {
    if (!w.submit) resubmit->fail("expected only with \"submit\": a batch system resubmits failed jobs");
    w.resubmit = resubmit->int_in(0, limits::kMaxResubmit);
  }
  if (auto warmup = node.find("warmup")) w.warmup_s = warmup->duration_s();
  if (w.duration_s && w.warmup_s >= *w.duration_s)
    node.at("warmup").fail("expected a warm-up shorter than the duration");
  if (node.has("modules") == node.has("modules_from"))
    node.fail(
        "expected exactly one of \"modules\" (the modules, written out) and \"modules_from\" (taken from a CMSSW "
        "FastTimerService report)");
  if (auto from = node.find("modules_from")) read_modules_from(*from, models, w);
  if (node.has("modules")) {
    const std::vector<JsonNode> modules = node.at("modules").non_empty_elements();
    for (const JsonNode& m : modules) w.modules.push_back(read_module(m, models));
    read_module_after(modules, w);
  }
  read_threads(node, w);
  return w;
}

}  // namespace sonicsim
