#pragma once
// Readers for what sites have: per-event timing CSV, HTCondor job history (condor_history -json)
// and Triton's Prometheus metrics. Every problem is an InputError naming the file and the line (or
// JSON pointer) and what was expected.
#include <optional>
#include <string>
#include <vector>

namespace sonicsim::validation {

struct LoggedEvent {
  std::string job;
  long long event = 0;
  double start_s = 0, end_s = 0;  // seconds; from start_s/end_s numbers or start/end ISO 8601 times
  std::string cpu_type;           // optional column
  int decimals = 0;               // fractional digits of its start and end as written (the log's resolution)
  double time_s() const { return end_s - start_s; }
};

// A time written with `decimals` fractional digits and read back, as a log with that resolution
// holds it (printf's rounding, then the reader's).
double at_resolution(double seconds, int decimals);

// CSV with a header naming at least job, event and either start_s,end_s (seconds) or start,end
// (ISO 8601, e.g. 2022-05-01T12:00:03.5Z); cpu_type and other columns are optional. sonicsim's own
// events.csv is such a file.
std::vector<LoggedEvent> read_event_log(const std::string& path);
std::vector<LoggedEvent> parse_event_log(const std::string& text, const std::string& path);

struct LoggedJob {
  std::string id;                 // ClusterId.ProcId
  double wall_s = 0;              // RemoteWallClockTime, or CompletionDate - JobCurrentStartDate
  double cpu_s = 0;               // RemoteUserCpu + RemoteSysCpu (0 if absent)
  double start_s = 0, end_s = 0;  // JobCurrentStartDate (or JobStartDate) and CompletionDate, Unix seconds
  std::string machine;            // LastRemoteHost or RemoteHost, if present
};

// `condor_history -json` output: an array of job ClassAds. Jobs without a CompletionDate are skipped.
std::vector<LoggedJob> read_condor_history(const std::string& path);
std::vector<LoggedJob> parse_condor_history(const std::string& text, const std::string& path);

// One scrape of Triton's /metrics, summed over models and GPUs (cumulative counters).
struct TritonScrape {
  std::string path;
  double time_s = 0;  // the samples' timestamp, or the time given as FILE@SECONDS
  double success = 0, failure = 0, inferences = 0, executions = 0;
  double queue_us = 0, request_us = 0, compute_infer_us = 0;
  std::optional<double> gpu_utilization;  // mean of nv_gpu_utilization over GPUs (0..1)
};

// `time_s`: the scrape time when the samples carry no timestamp.
TritonScrape read_prometheus_scrape(const std::string& path, std::optional<double> time_s);
TritonScrape parse_prometheus_scrape(const std::string& text, const std::string& path, std::optional<double> time_s);

// Rates and per-request means between the first and last scrape (by time), from counter deltas.
struct TritonWindow {
  double seconds = 0;
  double requests_per_s = 0, inferences_per_s = 0;
  double mean_batch = 0;  // inferences per execution
  double queue_per_request_s = 0;
  std::optional<double> gpu_utilization;  // mean over the scrapes that have it
};

// At least two scrapes at different times; a counter that goes down between two scrapes (a server
// restarted in between) is an InputError naming the later scrape's file.
TritonWindow triton_window(std::vector<TritonScrape> scrapes);

}  // namespace sonicsim::validation
