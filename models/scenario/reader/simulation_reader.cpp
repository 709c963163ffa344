#include "models/scenario/reader/simulation_reader.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"

namespace sonicsim {
namespace {

// SimGrid's network/model values that sonicsim supports, as the scenario writes them.
constexpr std::array<std::string_view, 2> kNetworkModels{"CM02", "LV08"};
constexpr Choice<bool Outputs::*> kOutputs[]{
    {"events", &Outputs::events},   {"requests", &Outputs::requests}, {"batches", &Outputs::batches},
    {"metrics", &Outputs::metrics}, {"jobs", &Outputs::jobs},         {"timeseries", &Outputs::timeseries},
};

// A fraction: a number, or a percentage written "1%".
double fraction_or_percent(const JsonNode& node) {
  if (node.raw().is_string()) {
    const std::string text = node.string();
    char* end = nullptr;
    const double percent = text.ends_with('%') ? std::strtod(text.c_str(), &end) : std::nan("");
    if (!(end == text.c_str() + text.size() - 1 && std::isfinite(percent)))
      node.fail("expected a fraction (0.01) or a percentage (\"1%\"), got \"" + text + "\"");
    return percent / 100;
  }
  return node.number();
}

StoppingRule read_stopping_rule(const JsonNode& node) {
  node.allow_only({"relative_half_width", "max_time"});
  StoppingRule rule;
  const JsonNode width = node.at("relative_half_width");
  rule.relative_half_width = fraction_or_percent(width);
  if (!(rule.relative_half_width > 0 && rule.relative_half_width < 1))
    width.fail("expected a relative half-width above 0 and below 1 (100%)");
  if (auto t = node.find("max_time")) rule.max_time_s = t->positive_duration_s();
  return rule;
}

NetworkModel read_network(const JsonNode& node) {
  node.allow_only({"model", "tcp_gamma", "crosstraffic", "latency_factor", "bandwidth_factor", "fast_path"});
  NetworkModel network;
  if (auto m = node.find("model")) network.model = m->choice(kNetworkModels);
  if (auto g = node.find("tcp_gamma")) network.tcp_gamma_bytes = g->bytes();
  if (auto c = node.find("crosstraffic")) network.crosstraffic = c->boolean();
  if (auto f = node.find("latency_factor"))
    network.latency_factor = f->number_in(limits::kMinFactor, limits::kMaxFactor);
  if (auto f = node.find("bandwidth_factor"))
    network.bandwidth_factor = f->number_in(limits::kMinFactor, limits::kMaxFactor);
  if (auto f = node.find("fast_path")) network.fast_path = f->boolean();
  return network;
}

// The outputs listed are written; the others are not.
Outputs read_outputs(const JsonNode& node) {
  Outputs outputs{false, false, false, false, false, false};
  for (const JsonNode& o : node.elements()) {
    bool Outputs::*output = o.choice(kOutputs);
    outputs.*output = true;
  }
  return outputs;
}

}  // namespace

SimulationOptions read_simulation(const JsonNode& node) {
  node.allow_only({"seed", "network", "stack_size", "outputs", "latency_quantile", "stop_at_precision"});
  SimulationOptions options;
  options.seed = node.at("seed").unsigned_integer();
  if (auto q = node.find("latency_quantile")) {
    options.latency_quantile = q->number();
    if (!(*options.latency_quantile > 0 && *options.latency_quantile < 1))
      q->fail("expected a quantile level strictly between 0 and 1");
  }
  if (auto rule = node.find("stop_at_precision")) options.stop_at_precision = read_stopping_rule(*rule);
  if (auto net = node.find("network")) options.network = read_network(*net);
  if (auto stack = node.find("stack_size")) {
    const double bytes = stack->bytes();
    if (!(bytes >= 16 * 1024 && bytes <= limits::kMaxStackBytes))
      stack->fail("expected a stack size from 16KiB to 64MiB");
    options.stack_size_kib = static_cast<int>(bytes / 1024);
  }
  if (auto outputs = node.find("outputs")) options.outputs = read_outputs(*outputs);
  return options;
}

}  // namespace sonicsim
