#include "cli/perf_run.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <vector>

#include "analysis/outputs/output_file.hpp"
#include "analysis/outputs/perf_records.hpp"
#include "analysis/outputs/perf_report.hpp"
#include "cli/processes/isolated_run.hpp"
#include "models/io/input_error.hpp"
#include "models/io/text_format.hpp"
#include "sim/perf_simulation.hpp"

namespace sonicsim::cli {

namespace {

// The output directory's files, if asked for: streamed by each level (analysis/outputs/perf_records.hpp).
std::optional<PerfRecordOutput> record_output(const Scenario& scenario, const std::string& directory) {
  if (directory.empty()) return std::nullopt;
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw std::runtime_error(directory + ": cannot create the output directory: " + ec.message());
  return PerfRecordOutput{directory, scenario.simulation.outputs.requests, scenario.simulation.outputs.batches};
}

}  // namespace

int run_perf_levels(const Scenario& scenario, const std::string& csv_path, bool quiet, const std::string& output_dir) {
  const PerfAnalyzerLoad& load = *scenario.perf_analyzer;
  const std::optional<PerfRecordOutput> records = record_output(scenario, output_dir);
  std::vector<PerfRow> rows;
  std::int64_t failed = 0;
  try {
    for (std::size_t level = 0; level < load.levels.size(); ++level) {
      const std::string text = run_isolated([&]() {
        std::optional<PerfLevelRecords> written;
        if (records)
          written.emplace(*records, level, load.mode, load.levels[level], scenario.device_naming,
                          scenario.requests_can_fail());
        const PerfMeasurement m = simulate_perf_level(scenario, level, written ? &*written : nullptr);
        return nlohmann::json{{"row", perf_row(m)}, {"failed", m.failed}}.dump();
      });
      const nlohmann::json result = nlohmann::json::parse(text);
      rows.push_back(result.at("row").get<PerfRow>());
      failed += result.at("failed").get<std::int64_t>();
    }
  } catch (...) {
    if (records) remove_perf_record_parts(*records, load.levels.size());  // the levels run before the error
    throw;
  }
  if (records)
    join_perf_records(*records, rows.size(), load.mode,
                      RecordNames{{}, {}, {}, scenario.device_naming, scenario.requests_can_fail()});
  // A level with no response is no measurement; a run of only such levels measured nothing.
  const auto unmeasured = std::count_if(rows.begin(), rows.end(), [](const PerfRow& r) { return r.requests == 0; });
  if (unmeasured == static_cast<std::ptrdiff_t>(rows.size()))
    throw InputError(
        scenario.file, "/perf_analyzer/measurement_interval",
        no_response(load, rows.size() == 1 ? level_name(load.mode, rows[0].level)
                                           : printf_string("any of the %zu %s levels", rows.size(),
                                                           load.mode == PerfLoadMode::Concurrency ? "concurrency"
                                                                                                  : "request rate")));
  for (std::size_t level = 0; level < rows.size(); ++level)
    if (rows[level].requests == 0)
      std::cerr << "sonicsim: warning: "
                << InputError(
                       scenario.file, level_pointer(load.mode, level),
                       no_response(load, level_name(load.mode, rows[level].level)) + "; left out of the perf CSV")
                       .what()
                << "\n";
  if (!quiet) {
    std::cout << "perf_analyzer load on model \"" << scenario.models[load.model].name << "\", batch size "
              << load.batch_size << ", " << load.windows << " x " << load.measurement_interval_s << " s windows after "
              << load.warmup_s << " s of warm-up\n\n"
              << format_perf_table(load.mode, rows);
    if (failed) std::cout << "\n" << failed << " requests failed inside the windows (left out of the latencies)\n";
  }
  if (!csv_path.empty()) {
    write_file(csv_path, perf_csv(load.mode, rows));
    if (!quiet) std::cout << "\nperf_analyzer CSV written to " << csv_path << "\n";
  }
  if (records && !quiet) std::cout << "\nrequests and batches written to " << output_dir << "/\n";
  return 0;
}

}  // namespace sonicsim::cli
