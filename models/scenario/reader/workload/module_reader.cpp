#include "models/scenario/reader/workload/module_reader.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/scenario/reader/value_readers.hpp"

namespace sonicsim {
namespace {

constexpr Choice<OnFailure> kOnFailure[]{
    {"fail_job", OnFailure::FailJob}, {"fallback", OnFailure::Fallback}, {"failover", OnFailure::Failover}};
constexpr Choice<FallbackScope> kFallbackScopes[]{{"event", FallbackScope::Event}, {"job", FallbackScope::Job}};

// `"on_failure": "fallback"`, as the messages about it quote it.
std::string on_failure_fallback() {
  std::string text = "\"on_failure\": ";
  return text.append(quoted(choice_name(kOnFailure, OnFailure::Fallback)));
}

Module read_cpu_module(const JsonNode& node, const std::vector<ModelSpec>&) {
  node.allow_only({"type", "name", "time", "after"});  // "after": module_graph_reader
  return CpuModule{node.at("name").name(), read_distribution(node.at("time"))};
}

// What the client does when a request fails: its tries, its deadline, and what then.
void read_failure_handling(const JsonNode& node, InferenceModule& m) {
  // SonicClientBase: allowedTries 0 and 1 both make one attempt.
  if (auto tries = node.find("allowed_tries"))
    m.allowed_tries = std::max(1, tries->int_in(0, limits::kMaxAllowedTries));
  if (auto timeout = node.find("client_timeout")) m.client_timeout_s = timeout->positive_duration_s();
  if (auto on_failure = node.find("on_failure")) {
    m.on_failure = on_failure->choice(kOnFailure);
    if (m.on_failure == OnFailure::Fallback && !m.cpu_fallback)
      node.fail(on_failure_fallback() + " runs the module on the CPU: expected a \"cpu_fallback\" time");
  }
  if (auto scope = node.find("fallback_scope")) {
    m.fallback_scope = scope->choice(kFallbackScopes);
    if (m.on_failure != OnFailure::Fallback) scope->fail("expected only with " + on_failure_fallback());
  }
}

// The keys of an inference module that say how its client sends requests: all but type, name, model.
const std::vector<std::string_view>& client_keys() {
  static const std::vector<std::string_view> keys{
      "items_per_event", "elements_per_item", "items_per_request", "preprocess",    "in_flight",
      "cpu_fallback",    "priority",          "timeout",           "allowed_tries", "client_timeout",
      "on_failure",      "fallback_scope",    "external_work"};
  return keys;
}

void read_client(const JsonNode& node, InferenceModule& m) {
  m.items_per_event = read_item_count(node.at("items_per_event"));
  // Whether the model's items have elements is a check across sections (cross_checks.cpp).
  if (auto elements = node.find("elements_per_item")) m.elements_per_item = read_item_count(*elements);
  m.items_per_request = node.at("items_per_request").int_at_least(1);
  m.preprocess = read_distribution(node.at("preprocess"));
  m.in_flight = node.at("in_flight").int_in(1, limits::kMaxInFlight);
  if (auto fallback = node.find("cpu_fallback")) m.cpu_fallback = read_distribution(*fallback);
  if (auto priority = node.find("priority")) m.priority = priority->int_at_least(0);
  if (auto timeout = node.find("timeout")) m.timeout_s = timeout->duration_s();
  if (auto external = node.find("external_work")) m.external_work = external->boolean();
  read_failure_handling(node, m);
}

int read_model_name(const JsonNode& model, const std::vector<ModelSpec>& models) {
  const int index = model_index(models, model.string());
  if (index < 0) model.fail("unknown model \"" + model.string() + "\" (not defined under /models)");
  return index;
}

Module read_inference_module(const JsonNode& node, const std::vector<ModelSpec>& models) {
  std::vector<std::string_view> keys{"type", "name", "model", "after"};
  keys.insert(keys.end(), client_keys().begin(), client_keys().end());
  node.allow_only(keys);
  InferenceModule m;
  m.name = node.at("name").name();
  m.model = read_model_name(node.at("model"), models);
  read_client(node, m);
  return m;
}

constexpr Choice<Module (*)(const JsonNode&, const std::vector<ModelSpec>&)> kModuleTypes[]{
    {"cpu", read_cpu_module}, {"inference", read_inference_module}};

}  // namespace

Module read_module(const JsonNode& node, const std::vector<ModelSpec>& models) {
  return node.at("type").choice(kModuleTypes)(node, models);
}

InferenceModule read_inference_request(const JsonNode& request, std::string name, const JsonNode& model,
                                       const std::vector<ModelSpec>& models, std::optional<Distribution> cpu_fallback) {
  request.allow_only(client_keys());
  InferenceModule m;
  m.name = std::move(name);
  m.model = read_model_name(model, models);
  m.cpu_fallback = std::move(cpu_fallback);
  read_client(request, m);
  return m;
}

}  // namespace sonicsim
