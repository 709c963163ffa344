#pragma once
// Job submission traces: when each job of a batch-system workload was submitted. Two formats:
//  - CSV with a header naming at least `submit_s` (seconds from the start of the run) and,
//    optionally, `events` (events that job runs; an empty cell: the scenario's events_per_job);
//  - `condor_history -json` output (what `validate` reads): each job ClassAd's QDate, the Unix time
//    HTCondor queued it, taken relative to the earliest QDate in the file.
// Jobs come back in submit order (ties keep file order). Every problem names the file and the line
// and column, or the JSON pointer.
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct TracedJob {
  double submit_s = 0;
  std::optional<int> events;
};

std::vector<TracedJob> read_job_trace(const std::string& path);
std::vector<TracedJob> parse_job_trace(const std::string& text, const std::string& path);

}  // namespace sonicsim
