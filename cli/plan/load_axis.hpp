#pragma once
// What a plan's search varies: the scenario value at a JSON pointer (--vary), a count (jobs, jobs
// per wave) searched as it is, or a duration between submissions (a Poisson mean interval, a wave
// period) searched as its rate, submissions per hour, so that more is more load either way.
#include <string>
#include <utility>
#include <vector>

namespace sonicsim::cli {

struct LoadAxis {
  std::string pointer;
  bool per_hour = false;  // the value is a duration: the search goes over 3600 s / duration
  int given = 0;          // the scenario's value, as the search counts it

  // What --set writes for the search's value `x`.
  std::string value_text(int x) const;
  // "400 jobs", "jobs_per_wave 50", "mean_interval 7.2s (500 per hour)".
  std::string describe(int x) const;
};

// The axis at `pointer` of the scenario file with the user's overrides; a pointer that names no
// positive whole number or duration is a boost::program_options::error naming --vary.
LoadAxis load_axis(const std::string& scenario_path, const std::vector<std::pair<std::string, std::string>>& overrides,
                   const std::string& pointer);

}  // namespace sonicsim::cli
