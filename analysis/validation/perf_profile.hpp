#pragma once
// perf_analyzer's JSON profile export (--profile-export-file; docs/reference/triton.md §9.2): per load
// level, every request's send time and response times, in ns since the epoch.
#include <string>
#include <vector>

namespace sonicsim::validation {

struct ProfileExperiment {
  std::string mode;  // "concurrency" or "request_rate"
  double value = 0;  // the load level
  // Send to last response, in seconds, of the requests whose last response falls inside the
  // measurement windows (all requests when the export has no window boundaries).
  std::vector<double> latencies_s;
};

// Throws InputError naming the file and the JSON pointer of anything malformed.
std::vector<ProfileExperiment> read_perf_profile(const std::string& path);
std::vector<ProfileExperiment> parse_perf_profile(const std::string& text, const std::string& path);

}  // namespace sonicsim::validation
