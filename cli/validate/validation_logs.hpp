#pragma once
// The logs `sonicsim validate` reads, each recognised from its content: event CSVs, condor_history
// JSON, Triton /metrics scrapes, per-job throughput logs, Prometheus range-query exports, and
// perf_analyzer's CSV and profile export.
#include <string>
#include <vector>

#include "analysis/calibration/perf_analyzer_csv.hpp"
#include "analysis/validation/job_throughput.hpp"
#include "analysis/validation/perf_profile.hpp"
#include "analysis/validation/prometheus_export.hpp"
#include "analysis/validation/site_logs.hpp"

namespace sonicsim::cli {

struct Logs {
  std::vector<validation::LoggedEvent> events;
  std::vector<validation::LoggedJob> jobs;
  std::vector<validation::TritonScrape> scrapes;
  std::vector<double> job_throughputs;                      // events/s, one per job
  std::vector<calibration::PerfAnalyzerTable> perf_tables;  // perf_analyzer -f CSVs
  std::vector<validation::ProfileExperiment> profile;       // perf_analyzer --profile-export-file
  std::vector<validation::MeasuredColumn> columns;          // Prometheus range-query exports
  bool perf() const { return !perf_tables.empty() || !profile.empty(); }
  bool grid_jobs() const {
    return !events.empty() || !jobs.empty() || !scrapes.empty() || !job_throughputs.empty() || !columns.empty();
  }
};

// Reads one LOG argument (FILE, FILE@SECONDS for a scrape without timestamps, COLUMN=FILE for a
// Prometheus export) into `logs`.
void read_log(const std::string& argument, Logs& logs);

}  // namespace sonicsim::cli
