#include "models/scenario/reader/workload/perf_analyzer_reader.hpp"

#include <initializer_list>
#include <optional>
#include <string>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/request_path_reader.hpp"
#include "models/scenario/reader/value_readers.hpp"

namespace sonicsim {
namespace {

constexpr Choice<RequestDistribution> kRequestDistributions[]{{"constant", RequestDistribution::Constant},
                                                              {"poisson", RequestDistribution::Poisson}};
constexpr Choice<MeasurementMode> kMeasurementModes[]{{"time_windows", MeasurementMode::TimeWindows},
                                                      {"count_windows", MeasurementMode::CountWindows}};
// The most requests a count window waits for (a level's windows together are bounded by
// limits::kMaxRecordedRequests).
constexpr int kMaxMeasurementRequestCount = 10'000'000;

// The first of `keys` that the node sets, to name in an error about their combination.
std::optional<JsonNode> first_set(const JsonNode& node, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (auto found = node.find(key)) return found;
  return std::nullopt;
}

}  // namespace

PerfAnalyzerLoad read_perf_analyzer(const JsonNode& node, const std::vector<ModelSpec>& models) {
  node.allow_only({"model", "batch_size", "concurrency", "request_rate", "request_distribution", "warmup",
                   "measurement_interval", "windows", "client_send", "client_recv", "protocol", "client_threads",
                   "client_gap", "measurement_mode", "measurement_request_count"});
  PerfAnalyzerLoad load;
  const JsonNode model = node.at("model");
  const std::string name = model.string();
  load.model = model_index(models, name);
  if (load.model < 0) model.fail("expected the name of a model in /models, got \"" + name + "\"");
  if (auto b = node.find("batch_size")) load.batch_size = b->int_at_least(1);

  const auto concurrency = node.find("concurrency");
  const auto rate = node.find("request_rate");
  if (concurrency.has_value() == rate.has_value())
    node.fail("expected exactly one of \"concurrency\" and \"request_rate\"");
  if (concurrency) {
    load.mode = PerfLoadMode::Concurrency;
    for (const JsonNode& level : concurrency->non_empty_elements()) load.levels.push_back(level.int_at_least(1));
  } else {
    load.mode = PerfLoadMode::RequestRate;
    for (const JsonNode& level : rate->non_empty_elements()) load.levels.push_back(level.number_positive());
  }
  if (auto d = node.find("request_distribution")) {
    if (!rate) d->fail("request_distribution applies to request_rate loads only");
    load.distribution = d->choice(kRequestDistributions);
  }
  if (auto w = node.find("warmup")) load.warmup_s = w->duration_s();
  if (auto m = node.find("measurement_interval")) load.measurement_interval_s = m->positive_duration_s();
  if (auto w = node.find("windows")) load.windows = w->int_at_least(1);
  // Each level runs for the warm-up and its windows: within the longest run, or it never ends.
  if (!(load.end_s() <= limits::kMaxDurationS)) {
    first_set(node, {"windows", "measurement_interval", "warmup"})
        .value_or(node)
        .fail(printf_string(
            "expected warmup + windows x measurement_interval of at most %g s (the longest run), got %g s + "
            "%d x %g s = %g s",
            limits::kMaxDurationS, load.warmup_s, load.windows, load.measurement_interval_s, load.end_s()));
  }
  if (auto m = node.find("measurement_mode")) load.measurement_mode = m->choice(kMeasurementModes);
  if (auto n = node.find("measurement_request_count")) {
    if (load.measurement_mode != MeasurementMode::CountWindows)
      n->fail("measurement_request_count applies to \"measurement_mode\": \"count_windows\" only");
    load.measurement_request_count = n->int_at_least(1);
    if (load.measurement_request_count > kMaxMeasurementRequestCount)
      n->fail(printf_string("expected at most %d requests, got %lld", kMaxMeasurementRequestCount,
                            static_cast<long long>(load.measurement_request_count)));
  }
  // A level keeps the latencies of all its windows for the percentiles, a count window at least its count.
  const double counted = static_cast<double>(load.windows) * static_cast<double>(load.measurement_request_count);
  if (load.measurement_mode == MeasurementMode::CountWindows && counted > limits::kMaxRecordedRequests) {
    first_set(node, {"measurement_request_count", "windows"})
        .value_or(node)
        .fail(printf_string(
            "a level keeps the latencies of its %d windows of at least %lld requests each, %.0f in all: more than the "
            "%lld latencies sonicsim keeps in memory",
            load.windows, static_cast<long long>(load.measurement_request_count), counted,
            static_cast<long long>(limits::kMaxRecordedRequests)));
  }
  if (auto s = node.find("client_send")) load.client_send = read_distribution(*s);
  if (auto r = node.find("client_recv")) load.client_recv = read_distribution(*r);
  load.protocol = read_client_protocol(node.find("protocol"));
  if (auto t = node.find("client_threads")) {
    if (!concurrency) t->fail("client_threads applies to concurrency loads only");
    load.client_threads = t->int_at_least(1);
  }
  if (auto g = node.find("client_gap")) load.client_gap_s = g->duration_s();
  return load;
}

}  // namespace sonicsim
