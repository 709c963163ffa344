#include "models/scenario/perf_load_parser.hpp"

namespace sonicsim {

PerfAnalyzerLoad parse_perf_analyzer(const JsonNode& node, const std::vector<ModelSpec>& models) {
  node.allow_only({"model", "batch_size", "concurrency", "request_rate", "request_distribution", "warmup",
                   "measurement_interval", "windows", "client_send", "client_recv"});
  PerfAnalyzerLoad load;
  const JsonNode model = node.at("model");
  const std::string name = model.string();
  for (std::size_t i = 0; i < models.size(); ++i)
    if (models[i].name == name) load.model = static_cast<int>(i);
  if (load.model < 0) model.fail("expected the name of a model in /models, got \"" + name + "\"");
  if (models[static_cast<std::size_t>(load.model)].layout != TensorLayout::Fixed)
    model.fail("model \"" + name + "\" has a variable (-1) dim; perf_analyzer's --shape is not simulated (give the model "
               "input_bytes_per_item and output_bytes_per_item for fixed-size requests)");
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
    const std::string kind = d->string();
    if (kind == "constant")
      load.distribution = RequestDistribution::Constant;
    else if (kind == "poisson")
      load.distribution = RequestDistribution::Poisson;
    else
      d->fail("expected \"constant\" or \"poisson\", got \"" + kind + "\"");
  }
  if (auto w = node.find("warmup")) load.warmup_s = w->duration_s();
  if (auto m = node.find("measurement_interval")) load.measurement_interval_s = m->positive_duration_s();
  if (auto w = node.find("windows")) load.windows = w->int_at_least(1);
  if (auto s = node.find("client_send")) load.client_send_s = s->duration_s();
  if (auto r = node.find("client_recv")) load.client_recv_s = r->duration_s();
  return load;
}

}  // namespace sonicsim
