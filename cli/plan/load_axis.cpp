#include "cli/plan/load_axis.hpp"

#include <cmath>
#include <limits>

#include <boost/program_options/errors.hpp>
#include <nlohmann/json.hpp>

#include "models/io/json/json_pointer.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/text_format.hpp"
#include "models/io/units.hpp"

namespace sonicsim::cli {
namespace {

[[noreturn]] void refuse(const std::string& pointer, const std::string& why) {
  throw boost::program_options::error("--vary " + pointer + ": " + why);
}

std::string last_token(const std::string& pointer) { return pointer.substr(pointer.rfind('/') + 1); }

}  // namespace

std::string LoadAxis::value_text(int x) const {
  if (per_hour) return printf_string("%.17gs", 3600.0 / x);
  return std::to_string(x);
}

std::string LoadAxis::describe(int x) const {
  if (pointer == "/workload/jobs") return printf_string("%5d %s", x, x == 1 ? "job" : "jobs");
  if (per_hour) return printf_string("%s %.4gs (%d per hour)", last_token(pointer).c_str(), 3600.0 / x, x);
  return printf_string("%s %d", last_token(pointer).c_str(), x);
}

LoadAxis load_axis(const std::string& scenario_path, const std::vector<std::pair<std::string, std::string>>& overrides,
                   const std::string& pointer) {
  nlohmann::json document = read_json_file(scenario_path);
  for (const auto& [at, value] : overrides) apply_override(document, at, value, scenario_path);
  nlohmann::json value;
  try {
    value = document.at(nlohmann::json::json_pointer(pointer));
  } catch (const nlohmann::json::exception&) {
    refuse(pointer,
           "the scenario has no value there (expected a JSON pointer to a count or a duration, e.g. "
           "/workload/submit/jobs_per_wave)");
  }
  LoadAxis axis{pointer, false, 0};
  if (value.is_number_integer() && value.get<std::int64_t>() >= 1 &&
      value.get<std::int64_t>() <= std::numeric_limits<int>::max()) {
    axis.given = value.get<int>();
    return axis;
  }
  if (value.is_string()) {
    double seconds = 0;
    try {
      seconds = units::parse_duration_s(value.get<std::string>());
    } catch (const units::UnitError&) {
      refuse(pointer, "expected a count or a duration there, got \"" + value.get<std::string>() + "\"");
    }
    if (!(seconds > 0 && seconds <= 3600))
      refuse(pointer, "expected a duration from 0 to 1 h there (searched as its rate per hour), got \"" +
                          value.get<std::string>() + "\"");
    axis.per_hour = true;
    axis.given = std::max(1, static_cast<int>(std::lround(3600 / seconds)));
    return axis;
  }
  refuse(pointer, "expected a positive whole number or a duration there, got " +
                      (value.is_structured() ? std::string("an ") + value.type_name() : value.dump()));
}

}  // namespace sonicsim::cli
