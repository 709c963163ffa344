#include "cli/validate/recorded_run.hpp"

#include <cstring>
#include <filesystem>
#include <optional>

#include <boost/program_options/errors.hpp>

#include "analysis/validation/site_logs.hpp"
#include "models/io/csv_cells.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"

namespace sonicsim::cli {
namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace {

// A run's own CSV files, read a row at a time (libfccp's reader holds one block of lines) however
// long the run was; a file edited or cut short gets an error naming its line and column.
template <unsigned Columns>
using RunCsv = io::CSVReader<Columns, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                             io::throw_on_overflow, io::no_comment>;

std::string run_file(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

// The file if the run wrote it; else what writes it, in one line.
std::string required_file(const std::string& dir, const char* name, const std::string& needed_by,
                          const std::string& how) {
  const std::string path = run_file(dir, name);
  if (!fs::exists(path))
    throw InputError(path, "",
                     "missing: " + needed_by + " the run's " + name + ", which " + how +
                         " (or validate without --run, which simulates the scenario)");
  if (!fs::is_regular_file(path))
    throw InputError(path, "", std::string("expected the file the run wrote (") + name + ")");
  return path;
}

// A file with more rows than a run records (models/io/limits.hpp) is no run's: refused before it
// takes more memory than the run did. `line` counts the header.
void beyond_a_run(const std::string& path, unsigned line, std::int64_t most, const char* what) {
  if (static_cast<std::int64_t>(line) - 1 > most)
    throw InputError(path, "line " + std::to_string(line),
                     "more rows than a sonicsim run records (at most " + std::to_string(most) + " " + what + ")");
}

std::string written_with(const char* output) {
  return std::string("sonicsim run --output writes where /simulation/outputs has \"") + output + "\"";
}

// The scenario, seed and latency quantile of summary.json against the scenario's.
void check_same_scenario(const JsonNode& summary, const Scenario& scenario, const std::string& dir) {
  const std::string name = summary.at("scenario").string();
  if (name != scenario.name)
    summary.at("scenario")
        .fail("the run in " + dir + " is of scenario \"" + name + "\", not of " + scenario.file + " (\"" +
              scenario.name + "\")");
  const std::uint64_t seed = summary.at("seed").unsigned_integer();
  if (seed != scenario.simulation.seed)
    summary.at("seed").fail("the run used seed " + std::to_string(seed) + ", the scenario " +
                            std::to_string(scenario.simulation.seed) +
                            ": give validate the run's seed (--set "
                            "/simulation/seed=" +
                            std::to_string(seed) + ") and its other --set values");
  const JsonNode quantile = summary.at("latency_quantile");
  const std::optional<double> run_q = quantile.raw().is_null() ? std::nullopt : std::optional(quantile.number());
  if (run_q != scenario.simulation.latency_quantile)
    quantile.fail("the run's latency quantile differs from the scenario's: give validate the run's --set values");
}

std::vector<validation::LoggedEvent> read_events(const std::string& path, double warmup_s) {
  std::vector<validation::LoggedEvent> events;
  // events.csv's times have microseconds; rounding is monotonic, so every event that started at or
  // after the cut is kept (and one that started less than a microsecond before it too).
  const double from_s = validation::at_resolution(warmup_s, 6);
  try {
    RunCsv<3> csv(path);
    csv.read_header(io::ignore_extra_column, "job", "start_s", "end_s");
    char *job = nullptr, *start = nullptr, *end = nullptr;
    while (csv.read_row(job, start, end)) {
      const unsigned line = csv.get_file_line();
      beyond_a_run(path, line, limits::kMaxEvents, "events");
      integer_cell(path, line, "job", job);
      validation::LoggedEvent e{
          job, 0, number_cell(path, line, "start_s", start), number_cell(path, line, "end_s", end), "", 6};
      if (e.start_s >= from_s) events.push_back(std::move(e));
    }
  } catch (const io::error::base& e) {
    rethrow_csv_error(path, e);
  }
  return events;
}

// Events per second of every job run that ended done having run events (job_throughput.hpp).
std::vector<double> read_job_throughputs(const std::string& path) {
  std::vector<double> rates;
  try {
    RunCsv<4> csv(path);
    csv.read_header(io::ignore_extra_column, "start_s", "end_s", "events", "outcome");
    char *start = nullptr, *end = nullptr, *events = nullptr, *outcome = nullptr;
    while (csv.read_row(start, end, events, outcome)) {
      if (std::strcmp(outcome, "done") != 0) continue;
      const unsigned line = csv.get_file_line();
      const double start_s = number_cell(path, line, "start_s", start), end_s = number_cell(path, line, "end_s", end);
      const long long count = integer_cell(path, line, "events", events);
      if (count > 0 && end_s > start_s) rates.push_back(static_cast<double>(count) / (end_s - start_s));
      if (static_cast<std::int64_t>(rates.size()) > limits::kMaxSubmittedJobs)
        throw InputError(
            path, cell_location(line, "outcome"),
            "more jobs done than a sonicsim run submits (" + std::to_string(limits::kMaxSubmittedJobs) + ")");
    }
  } catch (const io::error::base& e) {
    rethrow_csv_error(path, e);
  }
  return rates;
}

std::vector<TimeseriesRow> read_timeseries(const std::string& path, const char* device_key) {
  std::vector<TimeseriesRow> rows;
  const auto optional = [&](unsigned line, const char* column, const char* text) {
    return *text ? std::optional(number_cell(path, line, column, text)) : std::nullopt;
  };
  const std::string utilization = std::string(device_key) + "_utilization";
  try {
    RunCsv<7> csv(path);
    csv.read_header(io::ignore_extra_column, "time_s", "ready", "metric", "requests_per_s", "queue_ms", utilization,
                    "jobs_running");
    char *t = nullptr, *ready = nullptr, *metric = nullptr, *rps = nullptr, *queue = nullptr, *util = nullptr,
         *running = nullptr;
    while (csv.read_row(t, ready, metric, rps, queue, util, running)) {
      const unsigned line = csv.get_file_line();
      beyond_a_run(path, line, limits::kMaxTimeseriesRows, "Prometheus scrapes");
      TimeseriesRow row;
      row.t_s = number_cell(path, line, "time_s", t);
      const long long ready_count = integer_cell(path, line, "ready", ready);
      if (ready_count < 0 || ready_count > limits::kMaxHosts)
        throw InputError(path, cell_location(line, "ready"),
                         "expected a count of ready servers from 0 to " + std::to_string(limits::kMaxHosts));
      row.ready = static_cast<int>(ready_count);
      row.metric = optional(line, "metric", metric);
      row.requests_per_s = optional(line, "requests_per_s", rps);
      row.queue_ms = optional(line, "queue_ms", queue);
      row.gpu_utilization = optional(line, utilization.c_str(), util);
      row.jobs_running = integer_cell(path, line, "jobs_running", running);
      rows.push_back(row);
    }
  } catch (const io::error::base& e) {
    rethrow_csv_error(path, e);
  }
  return rows;
}

}  // namespace

SimulatedSide read_recorded_run(const std::string& dir, const Scenario& scenario, const RunNeeds& needs) {
  if (!fs::is_directory(dir))
    throw InputError(dir, "", "not a directory (--run expects the --output DIR of a sonicsim run of the scenario)");
  const std::string summary_path =
      required_file(dir, "summary.json", "validate --run reads", "sonicsim run --output always writes");
  const nlohmann::json document = read_json_file(summary_path);
  const JsonNode summary(document, "", summary_path);
  check_same_scenario(summary, scenario, dir);

  SimulatedSide side;
  side.end_s = summary.at("simulated_time_s").number_at_least(0);
  const char* device_key = device_words(scenario.device_naming).key;
  side.gpu_utilization = summary.at(device_key).at("utilization").number_at_least(0);
  if (auto triton = summary.find("triton"))
    for (const JsonNode& server : triton->at("servers").elements())
      for (const JsonNode& model : server.at("model_stats").elements()) {
        const JsonNode stats = model.at("inference_stats");
        side.successes += stats.at("success").at("count").number_at_least(0);
        side.inferences += model.at("inference_count").number_at_least(0);
        side.executions += model.at("execution_count").number_at_least(0);
        side.queue_ns += stats.at("queue").at("ns").number_at_least(0);
      }
  if (needs.events)
    side.events =
        read_events(required_file(dir, "events.csv", "event logs and condor_history need", written_with("events")),
                    summary.at("warmup_s").number_at_least(0));
  if (needs.jobs) {
    const bool written = scenario.workload.submit || scenario.workload.threaded();
    side.job_throughputs = read_job_throughputs(required_file(
        dir, "jobs.csv", "per-job throughput logs need",
        written ? written_with("jobs") : "sonicsim run writes only for batch-system and threaded workloads"));
  }
  if (needs.timeseries) {
    if (!scenario.scraped())
      throw po::error(
          "Prometheus exports need a scenario that Prometheus scrapes (a saturation gate or an autoscaler)");
    side.timeseries = read_timeseries(
        required_file(dir, "timeseries.csv", "Prometheus exports need", written_with("timeseries")), device_key);
  }
  return side;
}

}  // namespace sonicsim::cli
