#include "models/scenario/reader/platform/proxy_reader.hpp"

#include "models/io/limits.hpp"
#include "models/scenario/reader/platform/autoscaling_reader.hpp"
#include "models/scenario/reader/value_readers.hpp"

namespace sonicsim {
namespace {

SaturationGateSpec read_saturation_gate(const JsonNode& node) {
  node.allow_only({"threshold", "window", "metric"});
  SaturationGateSpec gate;
  gate.threshold_ms = node.at("threshold").number_in(0, 1e12);
  if (auto w = node.find("window")) gate.window_s = w->positive_duration_s();
  if (auto m = node.find("metric")) gate.metric = read_scaling_metric(*m);
  return gate;
}

TokenBucketSpec read_connection_limit(const JsonNode& node) {
  node.allow_only({"max_tokens", "tokens_per_fill", "fill_interval"});
  TokenBucketSpec bucket;
  if (auto t = node.find("max_tokens")) bucket.max_tokens = t->int_in(1, 1'000'000'000);
  if (auto t = node.find("tokens_per_fill")) bucket.tokens_per_fill = t->int_in(1, 1'000'000'000);
  if (auto d = node.find("fill_interval")) bucket.fill_interval_s = d->positive_duration_s();
  return bucket;
}

}  // namespace

ProxySpec read_proxy(const JsonNode& node) {
  node.allow_only(
      {"nic", "threads", "per_request", "dns_refresh", "connect_timeout", "saturation_gate", "connection_limit"});
  ProxySpec proxy;
  proxy.nic = read_link(node.at("nic"));
  if (auto t = node.find("threads")) proxy.threads = t->int_in(1, limits::kMaxFrontendThreads);
  if (auto d = node.find("per_request")) proxy.per_request_s = d->duration_s();
  if (auto d = node.find("dns_refresh")) proxy.dns_refresh_s = d->positive_duration_s();
  if (auto d = node.find("connect_timeout")) proxy.connect_timeout_s = d->duration_s();
  if (auto g = node.find("saturation_gate")) proxy.gate = read_saturation_gate(*g);
  if (auto limit = node.find("connection_limit")) proxy.connection_limit = read_connection_limit(*limit);
  return proxy;
}

}  // namespace sonicsim
