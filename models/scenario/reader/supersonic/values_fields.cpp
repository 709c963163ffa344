#include "models/scenario/reader/supersonic/values_fields.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::supersonic {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

std::string dumped(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

[[noreturn]] void wrong_type(const JsonNode& node, const std::string& expected) {
  node.fail("expected " + expected + ", got " + node.raw().type_name() + " " + dumped(node.raw()));
}

double bounded_duration(const JsonNode& node, double seconds) {
  if (!(seconds <= limits::kMaxDurationS))
    node.fail("expected a duration of at most 1e8 s (about 3 years), got " + dumped(node.raw()));
  return seconds;
}

}  // namespace

bool truthy(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return false;
    case nlohmann::json::value_t::boolean: return value.get<bool>();
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return value.get<double>() != 0;
    case nlohmann::json::value_t::string: return !value.get_ref<const std::string&>().empty();
    default: return !value.empty();
  }
}

std::optional<JsonNode> member(const JsonNode& map, const std::string& key) { return map.find(key); }

std::optional<JsonNode> map_member(const JsonNode& map, const std::string& key) {
  auto node = map.find(key);
  if (node && !node->raw().is_object()) wrong_type(*node, "a map");
  return node;
}

std::int64_t rendered_integer(const JsonNode& node, std::int64_t min, std::int64_t max, std::string_view what) {
  const nlohmann::json& v = node.raw();
  const auto out_of_range = [&] {
    node.fail("expected an integer from " + std::to_string(min) + " to " + std::to_string(max) +
              (what.empty() ? "" : " (" + std::string(what) + ")") + ", got " + dumped(v));
  };
  std::int64_t x = 0;
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    out_of_range();
  } else if (v.is_number_integer()) {
    x = v.get<std::int64_t>();
  } else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()) {
    if (std::fabs(v.get<double>()) > 1e15) out_of_range();
    x = static_cast<std::int64_t>(v.get<double>());
  } else if (v.is_string() && !v.get_ref<const std::string&>().empty() &&
             v.get_ref<const std::string&>().find_first_not_of("0123456789") == std::string::npos) {
    if (v.get_ref<const std::string&>().size() > 15) out_of_range();
    x = std::stoll(v.get<std::string>());
  } else {
    wrong_type(node, "an integer");
  }
  if (x < min || x > max) out_of_range();
  return x;
}

std::int64_t integer_or_default(const JsonNode& map, const std::string& key, std::int64_t fallback, std::int64_t min,
                                std::int64_t max, std::string_view what) {
  const auto node = member(map, key);
  if (!node || helm_empty(node->raw())) return fallback;
  return rendered_integer(*node, min, max, what);
}

std::string template_default(std::string_view template_file, std::int64_t d) {
  const std::string text = std::to_string(d);
  return "renders as " + text + " (" + std::string(template_file) + ": `default " + text +
         "`, and Helm's default takes 0 for unset)";
}

double number_or_numeric_string(const JsonNode& node) {
  const nlohmann::json& v = node.raw();
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    const std::size_t from = text.find_first_not_of(" \t");
    const std::size_t to = text.find_last_not_of(" \t");
    if (from != std::string::npos && text.find_first_of("0123456789") != std::string::npos) {
      const std::string trimmed = text.substr(from, to - from + 1);
      char* end = nullptr;
      errno = 0;
      const double x = std::strtod(trimmed.c_str(), &end);
      if (end == trimmed.c_str() + trimmed.size() && errno != ERANGE && std::isfinite(x) &&
          trimmed.find_first_of("xXpPnN") == std::string::npos)
        return x;
    }
  }
  wrong_type(node, "a number");
}

double envoy_duration_s(const JsonNode& node) {
  if (!node.raw().is_string()) wrong_type(node, "a duration in seconds as Envoy reads it, e.g. \"12s\" or \"0.25s\"");
  const std::string& text = node.raw().get_ref<const std::string&>();
  std::size_t i = 0;
  while (i < text.size() && digit(text[i])) ++i;
  bool ok = i > 0 && i <= 12;
  if (ok && i < text.size() && text[i] == '.') {
    const std::size_t fraction = ++i;
    while (i < text.size() && digit(text[i])) ++i;
    ok = i > fraction && i - fraction <= 9;
  }
  if (!ok || i + 1 != text.size() || text[i] != 's')
    node.fail(
        "expected a duration in seconds as Envoy reads it (a protobuf Duration: digits, at most 9 decimals, "
        "and \"s\", e.g. \"12s\" or \"0.25s\"), got \"" +
        text + "\"");
  return bounded_duration(node, std::strtod(text.c_str(), nullptr));
}

std::optional<double> parse_prometheus_duration_s(std::string_view text) {
  // Prometheus's model.ParseDuration: units in this order, each at most once; "0" alone is zero.
  static constexpr std::pair<std::string_view, double> kUnits[]{
      {"y", 365 * 86400.0}, {"w", 7 * 86400.0}, {"d", 86400.0}, {"h", 3600.0}, {"m", 60.0}, {"s", 1.0}, {"ms", 1e-3}};
  if (text == "0") return 0.0;
  if (text.empty() || text.size() > 40) return std::nullopt;
  double total = 0;
  std::size_t next_unit = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t from = i;
    while (i < text.size() && digit(text[i])) ++i;
    if (i == from || i - from > 12) return std::nullopt;
    const double number = std::strtod(std::string(text.substr(from, i - from)).c_str(), nullptr);
    std::size_t u = next_unit;
    // "ms" before "m": the longer unit where both fit.
    while (u < std::size(kUnits) && !(text.substr(i, kUnits[u].first.size()) == kUnits[u].first &&
                                      !(kUnits[u].first == "m" && text.substr(i, 2) == "ms")))
      ++u;
    if (u == std::size(kUnits)) return std::nullopt;
    total += number * kUnits[u].second;
    i += kUnits[u].first.size();
    next_unit = u + 1;
  }
  return total;
}

double prometheus_duration_s(const JsonNode& node) {
  if (!node.raw().is_string()) wrong_type(node, "a Prometheus duration, e.g. \"5s\" or \"1m30s\"");
  const auto seconds = parse_prometheus_duration_s(node.raw().get_ref<const std::string&>());
  if (!seconds)
    node.fail(
        "expected a Prometheus duration (numbers with y, w, d, h, m, s or ms in that order, e.g. \"5s\" or "
        "\"1m30s\"), got \"" +
        node.raw().get<std::string>() + "\"");
  return bounded_duration(node, *seconds);
}

double cpu_quantity(const JsonNode& node) {
  const nlohmann::json& v = node.raw();
  if (v.is_number() && v.get<double>() >= 0) return v.get<double>();
  if (v.is_string()) {
    std::string text = v.get<std::string>();
    double scale = 1;
    if (!text.empty() && text.back() == 'm') {
      scale = 1e-3;
      text.pop_back();
    }
    if (!text.empty() && text.size() < 20 && text.find_first_not_of("0123456789.") == std::string::npos &&
        text.find('.') == text.rfind('.') && text != ".")
      return std::strtod(text.c_str(), nullptr) * scale;
  }
  wrong_type(node, "a CPU quantity (e.g. 2, 0.5 or \"500m\")");
}

std::string duration_text(double seconds) { return printf_string("%.17gs", seconds); }

std::string dotted(std::string_view pointer) {
  std::string out;
  for (std::size_t i = 0; i < pointer.size(); ++i) {
    if (pointer[i] == '/') {
      if (i > 0) out += '.';
    } else if (pointer[i] == '~' && i + 1 < pointer.size()) {
      out += pointer[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += pointer[i];
    }
  }
  return out;
}

}  // namespace sonicsim::supersonic
