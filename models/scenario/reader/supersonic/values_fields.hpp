#pragma once
// Reading one value of a SuperSONIC values file as the chart's templates use it: Go template truth,
// sprig's `default`, integers as a template renders them, and the duration and quantity formats of
// the programs that finally read the rendered text (Envoy, Prometheus, Kubernetes). Every problem is
// an InputError naming the values file and the value's JSON pointer in it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/io/json/json_reader.hpp"

namespace sonicsim::supersonic {

// text/template's truth, as `{{ if .Values.x }}` tests it: false, 0, null, "" and empty maps and
// lists are false, anything else true (the string "false" too).
bool truthy(const nlohmann::json& value);
// sprig's `empty`, which `default` tests: the same values as not truthy.
inline bool helm_empty(const nlohmann::json& value) { return !truthy(value); }

// An optional member: absent or null (Helm removes a key set to null) is nullopt.
std::optional<JsonNode> member(const JsonNode& map, const std::string& key);
// A member that must be a map when given (`.Values.a.b` on a non-map fails Helm's rendering).
std::optional<JsonNode> map_member(const JsonNode& map, const std::string& key);

// An integer as the template renders it into a manifest: an integer, a float with no fraction, or a
// string of decimal digits; within [min, max] (`what` says whose bound it is).
std::int64_t rendered_integer(const JsonNode& node, std::int64_t min, std::int64_t max, std::string_view what);
// `{{ default D .x }}`: D when x is absent or empty (0 too: a quirk the chart's users meet), else x.
std::int64_t integer_or_default(const JsonNode& map, const std::string& key, std::int64_t fallback, std::int64_t min,
                                std::int64_t max, std::string_view what);
// What `{{ default D .x }}` in `template_file` makes of an x that sprig takes for unset (0, "", false):
// "renders as D (FILE: `default D`, ...)", the end of a note naming x.
std::string template_default(std::string_view template_file, std::int64_t d);
// A number, or a string holding one (the chart quotes serverLoadThreshold for KEDA and Lua's
// tonumber reads it back); finite.
double number_or_numeric_string(const JsonNode& node);

// A protobuf Duration as Envoy reads one from YAML: decimal seconds with an "s" ("12s", "0.25s").
double envoy_duration_s(const JsonNode& node);
// A Prometheus duration ("30s", "1m30s", "500ms"); nullopt when `text` is not one.
std::optional<double> parse_prometheus_duration_s(std::string_view text);
double prometheus_duration_s(const JsonNode& node);
// A Kubernetes CPU quantity: 2, 0.5, "2", "500m".
double cpu_quantity(const JsonNode& node);

// A duration as a scenario writes it, exactly ("%.17g" and "s").
std::string duration_text(double seconds);
// "a.b.c" for the JSON pointer "/a/b/c" (Helm's --set notation; a key keeps its own dots).
std::string dotted(std::string_view pointer);

}  // namespace sonicsim::supersonic
