// What plan --vary searches: a count as it is, a duration between submissions as its rate per hour,
// and one-line errors for a pointer that names neither.
#include <doctest/doctest.h>

#include <boost/program_options/errors.hpp>

#include "cli/plan/load_axis.hpp"

using namespace sonicsim::cli;

namespace {

const std::string waves = SONICSIM_SCENARIOS_DIR "/cms-t2-waves.json";

std::string error_of(const std::vector<std::pair<std::string, std::string>>& overrides, const std::string& pointer) {
  try {
    load_axis(waves, overrides, pointer);
  } catch (const boost::program_options::error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a count is searched as it is; the value the search sets is the count") {
  const LoadAxis axis = load_axis(waves, {}, "/workload/submit/jobs_per_wave");
  CHECK_FALSE(axis.per_hour);
  CHECK(axis.given == 50);
  CHECK(axis.value_text(80) == "80");
  CHECK(axis.describe(80) == "jobs_per_wave 80");
  CHECK(load_axis(waves, {{"/workload/jobs", "2000"}}, "/workload/jobs").describe(1) == "    1 job");
}

TEST_CASE("a duration between submissions is searched as submissions per hour") {
  // The waves' period of 10 min: 6 per hour; 12 per hour sets a period of 300 s.
  const LoadAxis axis = load_axis(waves, {}, "/workload/submit/period");
  CHECK(axis.per_hour);
  CHECK(axis.given == 6);
  CHECK(axis.value_text(12) == "300s");
  CHECK(axis.describe(12) == "period 300s (12 per hour)");
}

TEST_CASE("a pointer that names no count or duration is refused, naming --vary") {
  CHECK(error_of({}, "/workload/nope") ==
        "--vary /workload/nope: the scenario has no value there (expected a JSON pointer to a count or a duration, "
        "e.g. /workload/submit/jobs_per_wave)");
  CHECK(error_of({}, "/workload/modules") ==
        "--vary /workload/modules: expected a positive whole number or a duration there, got an array");
  CHECK(error_of({{"/workload/submit/period", "2h"}}, "/workload/submit/period") ==
        "--vary /workload/submit/period: expected a duration from 0 to 1 h there (searched as its rate per hour), got "
        "\"2h\"");
  CHECK(error_of({}, "/platform/servers/0/gpu") ==
        "--vary /platform/servers/0/gpu: expected a count or a duration there, got \"H100\"");
  CHECK(error_of({{"/workload/jobs", "0"}}, "/workload/jobs").find("expected a positive whole number") !=
        std::string::npos);
}
