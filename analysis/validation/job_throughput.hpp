#pragma once
// Per-job throughput: one events-per-second value per completed job, as the CMS Mini-AOD SONIC
// tests logged it (yongbinfeng/SONIC_miniAOD_paper_2022, slurm_splitServer_*/Synchro_*.txt: plain
// text, one value per line). The log's values against the simulated jobs' own: events completed
// over the job's wall time, one value per job that ended having completed its events.
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/records.hpp"
#include "analysis/validation/comparison.hpp"

namespace sonicsim::validation {

// More values than this is no site's log (a 512 MiB file of "1\n" would hold 268 million); the
// bound keeps the reader's memory under 100 MB.
inline constexpr std::size_t kMaxLoggedJobs = 10'000'000;
// No job completes a billion events per second; the bound keeps every sum and mean finite.
inline constexpr double kMaxJobEventsPerS = 1e9;

// Whether `text` is such a log: its first line that is neither blank nor a '#' comment is a
// number and nothing else (an event CSV starts with its column names, the other logs with '[',
// '{', "Concurrency," or a metric name).
bool is_job_throughput_log(const std::string& text);

// The values, in file order. Blank lines and lines starting with '#' are skipped; any other line
// must be one finite number > 0 and at most kMaxJobEventsPerS (InputError "FILE: line N: ...").
std::vector<double> parse_job_throughput_log(const std::string& text, const std::string& path);
std::vector<double> read_job_throughput_log(const std::string& path);

// Events per second of every job that ended without failing (JobOutcome::Done) after completing
// at least one event: events / (end_s - start_s), in the records' order. Failed, resubmitted,
// still running or queued jobs have no throughput a log would hold. The whole job counts, warm-up
// included: the log's value is the job's own.
std::vector<double> job_throughputs(const std::vector<JobRecord>& jobs);

// Rows "job_throughput_*": mean, p10, p50, p90 (events/s, relative errors), the KS statistic, and
// the Wasserstein-1 distance relative to the measured mean. p10 and p90 rather than p99: a few
// hundred jobs put a handful of values beyond p90 and p10, and one beyond p99.
std::vector<ValidationRow> compare_job_throughputs(const std::vector<double>& measured,
                                                   const std::vector<double>& simulated, const Tolerances& tolerances);

}  // namespace sonicsim::validation
