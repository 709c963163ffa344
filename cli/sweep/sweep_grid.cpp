#include "cli/sweep/sweep_grid.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"

namespace sonicsim {
namespace {

double range_number(const std::string& text, const std::string& argument) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    throw std::invalid_argument("--set " + argument + ": expected START:STOP:STEP with three numbers, got \"" + text +
                                "\"");
  return value;
}

std::string number_text(double x) {
  if (std::abs(x) < 1e15 && x == std::round(x)) return std::to_string(static_cast<long long>(x));
  return nlohmann::json(x).dump();
}

std::vector<std::string> range_values(const std::string& spec, const std::string& argument) {
  const auto first = spec.find(':');
  const auto second = spec.find(':', first + 1);
  if (second == std::string::npos || spec.find(':', second + 1) != std::string::npos)
    throw std::invalid_argument("--set " + argument + ": expected START:STOP:STEP");
  const double start = range_number(spec.substr(0, first), argument);
  const double stop = range_number(spec.substr(first + 1, second - first - 1), argument);
  const double step = range_number(spec.substr(second + 1), argument);
  if (!(step > 0) || stop < start)
    throw std::invalid_argument("--set " + argument + ": expected a positive STEP and STOP >= START");
  const double count = std::floor((stop - start) / step + 1e-9) + 1;
  if (!(count <= static_cast<double>(limits::kMaxSweepPoints)))
    throw std::invalid_argument("--set " + argument + ": more than " + std::to_string(limits::kMaxSweepPoints) +
                                " values, the most a sweep runs");
  std::vector<std::string> values;
  for (long long i = 0; i < static_cast<long long>(count); ++i) values.push_back(number_text(start + i * step));
  return values;
}

}  // namespace

SweepAxis parse_sweep_axis(const std::string& argument) {
  const auto eq = argument.find('=');
  if (eq == std::string::npos || eq == 0 || argument[0] != '/')
    throw std::invalid_argument("--set expects /JSON/POINTER=VALUES (e.g. --set /workload/jobs=50:400:50), got \"" +
                                argument + "\"");
  SweepAxis axis{argument.substr(0, eq), {}};
  const std::string spec = argument.substr(eq + 1);
  if (!spec.empty() && spec[0] == '[') {
    const nlohmann::json array = parse_json_text(spec, "--set " + axis.pointer);
    if (!array.is_array())
      throw std::invalid_argument("--set " + argument + ": a value list starting with '[' must be a JSON array");
    for (const auto& v : array) axis.values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  } else if ((!spec.empty() && spec[0] == '{') || nlohmann::json::accept(spec)) {
    // One JSON value, as `run --set` takes it: an object (a start pattern...), a number, a string.
    const nlohmann::json value = parse_json_text(spec, "--set " + axis.pointer);
    axis.values.push_back(value.is_string() ? value.get<std::string>() : value.dump());
  } else if (spec.find(':') != std::string::npos) {
    axis.values = range_values(spec, argument);
  } else {
    for (std::size_t start = 0;;) {
      const auto comma = spec.find(',', start);
      axis.values.push_back(spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  for (const std::string& v : axis.values)
    if (v.empty()) throw std::invalid_argument("--set " + argument + ": an empty value in the list");
  if (axis.values.empty()) throw std::invalid_argument("--set " + argument + ": no values");
  return axis;
}

std::vector<std::vector<std::string>> sweep_points(const std::vector<SweepAxis>& axes) {
  double size = 1;
  for (const SweepAxis& axis : axes) size *= static_cast<double>(axis.values.size());
  if (size > static_cast<double>(limits::kMaxSweepPoints))
    throw std::invalid_argument("the grid has " + number_text(size) + " points, more than the " +
                                std::to_string(limits::kMaxSweepPoints) + " a sweep runs");
  std::vector<std::vector<std::string>> points{{}};
  for (const SweepAxis& axis : axes) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : points)
      for (const std::string& value : axis.values) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    points = std::move(next);
  }
  return points;
}

}  // namespace sonicsim
