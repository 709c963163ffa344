#pragma once
// The parameter grid of `sonicsim sweep`: each "--set /json/pointer=VALUES" is an axis, and the
// points are the Cartesian product of the axes (the first axis varies slowest).
#include <string>
#include <vector>

namespace sonicsim {

struct SweepAxis {
  std::string pointer;              // JSON pointer into the scenario, e.g. "/workload/jobs"
  std::vector<std::string> values;  // override texts, as `run --set` takes them ("200", "12ms")
};

// "/p=1,2,4,8" (a list), "/p=50:400:50" (start:stop:step, stop included when the steps reach it),
// "/p=[1, \"2ms\", [3]]" (a JSON array, for values that contain commas), or any one JSON value, as
// `run --set` takes it ("/p={\"pattern\": \"waves\", ...}", "/p=true"). Throws std::invalid_argument
// with what was expected (an InputError for malformed JSON).
SweepAxis parse_sweep_axis(const std::string& argument);

// Every combination of one value per axis, first axis slowest; one empty point without axes.
// More than limits::kMaxSweepPoints combinations is a std::invalid_argument.
std::vector<std::vector<std::string>> sweep_points(const std::vector<SweepAxis>& axes);

}  // namespace sonicsim
