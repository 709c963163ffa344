#include "models/scenario/reader/workload/perf_analyzer_reader.hpp"

#include <string>

#include "models/io/json/choice.hpp"
#include "models/scenario/reader/value_readers.hpp"

namespace sonicsim {
namespace {

constexpr Choice<RequestDistribution> kRequestDistributions[]{{"constant", RequestDistribution::Constant},
                                                              {"poisson", RequestDistribution::Poisson}};

}  // namespace

PerfAnalyzerLoad read_perf_analyzer(const JsonNode& node, const std::vector<ModelSpec>& models) {
  node.allow_only({"model", "batch_size", "concurrency", "request_rate", "request_distribution", "warmup",
                   "measurement_interval", "windows", "client_send", "client_recv"});
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
  if (auto s = node.find("client_send")) load.client_send = read_distribution(*s);
  if (auto r = node.find("client_recv")) load.client_recv = read_distribution(*r);
  return load;
}

}  // namespace sonicsim
