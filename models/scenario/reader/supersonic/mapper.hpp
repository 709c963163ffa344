#pragma once
// The state of one values file's mapping (values_mapping.hpp), shared by its two halves:
// values_mapping.cpp (Triton, KEDA, the pods' probes and lifecycle) and envoy_mapping.cpp (Envoy,
// the load metric, Prometheus). Private to reader/supersonic/.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/reader/supersonic/load_metric_query.hpp"
#include "models/scenario/reader/supersonic/values_mapping.hpp"

namespace sonicsim::supersonic {

class Mapper {
 public:
  explicit Mapper(const ValuesInput& input);
  ValuesMapping run();

 private:
  // The merged values at a path of keys, each a map where given; nullopt if absent or null.
  std::optional<JsonNode> find(std::initializer_list<std::string_view> keys) const;
  // The map at a path of keys; an empty one where the file removed it (a null).
  JsonNode section(std::initializer_list<std::string_view> keys) const;
  // Whether the file itself sets the value at `pointer` ("/keda/scaleUp/periodSeconds").
  bool file_sets(const std::string& pointer) const;
  // Whether the scenario gives the key at `pointer` under its group or its /platform.
  bool inline_has(bool platform, const std::string& pointer) const;
  // A text/template `if` on the value at `keys`; a string there gets a note (any text is true).
  bool enabled(std::initializer_list<std::string_view> keys);
  void set(bool platform, const std::string& pointer, nlohmann::json value, const std::string& source);
  // integer_or_default (values_fields.hpp), with a note "KEY VALUE <becomes>" where the file gives a
  // value taken for unset (0, "" or false), which becomes `fallback`.
  std::int64_t defaulted(const JsonNode& map, const std::string& key, std::int64_t fallback, std::int64_t min,
                         std::int64_t max, std::string_view what, const std::string& becomes);
  void note(std::string line) { out_.notes.push_back(std::move(line)); }
  // Values of the file left unused because their feature is off ("keda" while KEDA is disabled).
  void unused(std::string pointer) { unused_.push_back(std::move(pointer)); }

  // values_mapping.cpp
  void triton_and_keda();
  void scaling_rules(const char* direction, const char* key);
  void readiness();
  // envoy_mapping.cpp
  void envoy();
  void load_metric();
  void threshold();
  void scrape_interval();
  // values_notes.cpp: the lines saying what the file sets that the simulation leaves out.
  void ignored_values();

  const ValuesInput& in_;
  const nlohmann::json empty_ = nlohmann::json::object();
  JsonNode root_;
  ValuesMapping out_;
  std::vector<std::string> unused_;
  bool keda_ = false;
  bool envoy_ = false;
  bool gate_ = false;
  std::string devices_key_;  // "devices_per_server" or "gpus_per_server", as the group names its devices
};

}  // namespace sonicsim::supersonic
