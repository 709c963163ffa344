#include "cli/validate/validation_logs.hpp"

#include <charconv>
#include <cmath>
#include <optional>

#include <boost/program_options/errors.hpp>

#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
using nlohmann::json;
using namespace sonicsim::validation;

namespace {

// The logs validate reads, as the messages name them.
constexpr const char* kLogFormats =
    "an event CSV (job,event,start_s,end_s or start,end; a run's events.csv is one), condor_history -json, "
    "Triton /metrics scrapes, a per-job throughput log (one events/s value per line, one line per job), "
    "perf_analyzer's CSV (-f) or its profile export (--profile-export-file)";

// A JSON object that is not perf_analyzer's profile export (its key: "experiments") is no log.
void check_profile_export(const std::string& text, const std::string& path) {
  const json document = parse_json_text(text, path);
  if (document.is_object() && document.contains("experiments")) return;
  const bool summary = document.is_object() && document.contains("scenario") && document.contains("events");
  throw InputError(path, "",
                   std::string(summary ? "a sonicsim summary.json is not a log (give validate the run's events.csv)"
                                       : "not a log format sonicsim reads") +
                       "; validate reads " + kLogFormats);
}

// A range-query export: COLUMN=FILE names the timeseries.csv column it measures; a bare FILE is
// matched by its series' documented names.
void read_prometheus_export(const std::string& text, const std::string& path, const std::string& column, Logs& logs) {
  const PromExport file = parse_prometheus_export(text, path);
  std::string as = column;
  if (as.empty()) {
    for (const PromSeries& s : file.series) {
      const std::string c = column_of_metric_name(s.name);
      if (c.empty() || (!as.empty() && c != as))
        throw InputError(path, "",
                         "cannot tell which series \"" + (s.name.empty() ? std::string("(an expression)") : s.name) +
                             "\" measures: give it as COLUMN=" + path +
                             " (columns: ready, metric, "
                             "requests_per_s, queue_ms, gpu_utilization)");
      as = c;
    }
  }
  for (const MeasuredColumn& c : logs.columns)
    if (c.column == as) throw InputError(path, "", "\"" + as + "\" is already measured by " + c.path);
  logs.columns.push_back(measured_column(file, as));
}

}  // namespace

// What a LOG argument is, from its content: condor_history JSON, Prometheus text, a profile
// export, a perf_analyzer CSV, a per-job throughput log (bare numbers), or an event CSV.
void read_log(const std::string& argument, Logs& logs) {
  const auto at = argument.rfind('@');
  std::string path = argument;
  std::optional<double> time_s;
  if (at != std::string::npos && at > 0) {
    const std::string seconds = argument.substr(at + 1);
    double value = 0;
    const auto [stop, error] = std::from_chars(seconds.data(), seconds.data() + seconds.size(), value);
    if (!seconds.empty() && error == std::errc() && stop == seconds.data() + seconds.size()) {
      if (!std::isfinite(value) || value < 0)
        throw po::error("\"" + argument + "\": expected FILE@SECONDS with SECONDS a finite time of at least 0");
      time_s = value;
      path = argument.substr(0, at);
    }
  }
  std::string column;
  if (const auto eq = path.find('='); eq != std::string::npos)
    for (const std::string& c : prometheus_columns())
      if (path.substr(0, eq) == c) column = c, path = path.substr(eq + 1);
  const std::string text = read_input_file(path, kMaxLogFileBytes);
  if (!column.empty() || is_prometheus_export(text)) return read_prometheus_export(text, path, column, logs);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    throw InputError(path, "", std::string("an empty log; validate reads ") + kLogFormats);
  if (text[first] == '[') {
    const auto jobs = parse_condor_history(text, path);
    logs.jobs.insert(logs.jobs.end(), jobs.begin(), jobs.end());
  } else if (text.find("nv_inference_") != std::string::npos) {
    logs.scrapes.push_back(parse_prometheus_scrape(text, path, time_s));
  } else if (text[first] == '{') {
    check_profile_export(text, path);
    const auto experiments = parse_perf_profile(text, path);
    logs.profile.insert(logs.profile.end(), experiments.begin(), experiments.end());
  } else if (text.rfind("Concurrency,", 0) == 0 || text.rfind("Request Rate,", 0) == 0) {
    logs.perf_tables.push_back(calibration::parse_perf_analyzer_csv(text, path));
  } else if (is_job_throughput_log(text)) {
    const auto rates = parse_job_throughput_log(text, path);
    logs.job_throughputs.insert(logs.job_throughputs.end(), rates.begin(), rates.end());
  } else {
    const auto events = parse_event_log(text, path);
    logs.events.insert(logs.events.end(), events.begin(), events.end());
  }
}

}  // namespace sonicsim::cli
