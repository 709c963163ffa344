#include "analysis/calibration/perf_analyzer_csv.hpp"

#include <algorithm>
#include <sstream>

#include "analysis/calibration/spread_fit.hpp"
#include "models/io/csv_cells.hpp"
#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::calibration {
namespace {

constexpr unsigned kColumns = 14;
using PerfAnalyzerCsvReader = io::CSVReader<kColumns, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>,
                                            io::throw_on_overflow, io::empty_line_comment>;

// The kernel's spread, read off the row's latency percentiles with every other part of a request's
// latency taken as constant: L = C + K, so K_q = L_q - C with C = mean(L) - mean(K) = the sum of
// the other columns (Network+Server Send/Recv is the residual that makes the columns sum to the
// mean latency, docs/reference/triton.md §9.1), and a lognormal through K_50 and K_99. An upper bound:
// whatever else varies (queueing, the network) is counted as the kernel's.
void kernel_spread_from_percentiles(const PerfAnalyzerRow& row, LatencyPoint& point) {
  if (!row.p50_us || !row.p99_us) {
    point.cv_method = "no p50 and p99 latency in the row";
    return;
  }
  const auto us = [](std::optional<long long> v) { return static_cast<double>(v.value_or(0)); };
  const double others = static_cast<double>(row.client_send_us + row.client_recv_us) + us(row.network_server_us) +
                        us(row.server_queue_us) + us(row.compute_input_us) + us(row.compute_output_us);
  const double k50 = us(row.p50_us) - others, k99 = us(row.p99_us) - others;
  if (!(k50 > 0)) {
    point.cv_method = "the p50 latency is within the other columns' mean time: its spread is not the kernel's";
    return;
  }
  point.cv = lognormal_cv_from_quantiles(k50 * 1e-6, k99 * 1e-6);
  point.cv_method = "p50 and p99 latency of line " + std::to_string(row.line) +
                    ", the other columns taken as constant (a lognormal; an upper bound)";
}

}  // namespace

PerfAnalyzerTable read_perf_analyzer_csv(const std::string& path) {
  return parse_perf_analyzer_csv(read_input_file(path, kMaxLogFileBytes, "line 1"), path);
}

PerfAnalyzerTable parse_perf_analyzer_csv(const std::string& text, const std::string& path) {
  PerfAnalyzerTable table{path, "", {}};
  try {
    PerfAnalyzerCsvReader reader(path, text.data(), text.data() + text.size());
    reader.read_header(io::ignore_extra_column | io::ignore_missing_column, "Concurrency", "Request Rate",
                       "Inferences/Second", "Client Send", "Network+Server Send/Recv", "Server Queue",
                       "Server Compute Input", "Server Compute Infer", "Server Compute Output", "Client Recv",
                       "p50 latency", "p90 latency", "p95 latency", "p99 latency");
    const bool concurrency = reader.has_column("Concurrency");
    if (concurrency == reader.has_column("Request Rate"))
      throw InputError(path, "line 1",
                       "expected a perf_analyzer header with exactly one of the columns \"Concurrency\" and "
                       "\"Request Rate\"");
    table.load_column = concurrency ? "Concurrency" : "Request Rate";
    for (const char* required : {"Inferences/Second", "Client Send", "Client Recv"})
      if (!reader.has_column(required))
        throw InputError(path, "line 1",
                         std::string("expected a \"") + required + "\" column (perf_analyzer -f output)");

    char* cells[kColumns];
    while (true) {
      std::fill(std::begin(cells), std::end(cells), nullptr);
      if (!reader.read_row(cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7], cells[8],
                           cells[9], cells[10], cells[11], cells[12], cells[13]))
        break;
      const unsigned line = reader.get_file_line();
      const auto microseconds = [&](const char* column, const char* text) {
        const long long us = integer_cell(path, line, column, text);
        if (us < 0)
          throw InputError(path, cell_location(line, column), "expected a non-negative number of microseconds");
        return us;
      };
      const auto optional_us = [&](const char* column, const char* text) -> std::optional<long long> {
        if (!text) return std::nullopt;
        return microseconds(column, text);
      };
      PerfAnalyzerRow row;
      row.line = static_cast<int>(line);
      const char* load_text = concurrency ? cells[0] : cells[1];
      row.load = number_cell(path, line, table.load_column, load_text);
      if (!(row.load > 0)) throw InputError(path, cell_location(line, table.load_column), "expected a positive load");
      row.inferences_per_s = number_cell(path, line, "Inferences/Second", cells[2]);
      if (!(row.inferences_per_s >= 0))
        throw InputError(path, cell_location(line, "Inferences/Second"), "expected a non-negative throughput");
      row.client_send_us = microseconds("Client Send", cells[3]);
      row.network_server_us = optional_us("Network+Server Send/Recv", cells[4]);
      row.server_queue_us = optional_us("Server Queue", cells[5]);
      row.compute_input_us = optional_us("Server Compute Input", cells[6]);
      row.compute_infer_us = optional_us("Server Compute Infer", cells[7]);
      row.compute_output_us = optional_us("Server Compute Output", cells[8]);
      row.client_recv_us = microseconds("Client Recv", cells[9]);
      row.p50_us = optional_us("p50 latency", cells[10]);
      row.p90_us = optional_us("p90 latency", cells[11]);
      row.p95_us = optional_us("p95 latency", cells[12]);
      row.p99_us = optional_us("p99 latency", cells[13]);
      table.rows.push_back(row);
    }
  } catch (const io::error::base& e) {
    rethrow_csv_error(path, e);
  }
  if (table.rows.empty()) throw InputError(path, "rows", "expected at least one row of measurements");
  return table;
}

CalibrationInput kernel_point_from_perf_analyzer(const PerfAnalyzerTable& table, int batch_size) {
  const auto lowest = std::min_element(table.rows.begin(), table.rows.end(),
                                       [](const auto& a, const auto& b) { return a.load < b.load; });
  if (!lowest->compute_infer_us)
    throw InputError(
        table.path, "line 1",
        "expected a \"Server Compute Infer\" column: perf_analyzer writes the server columns only when the "
        "server reports statistics");
  if (*lowest->compute_infer_us == 0 || *lowest->compute_infer_us > limits::kMaxDurationS * 1e6)
    throw InputError(table.path, cell_location(lowest->line, "Server Compute Infer"),
                     printf_string("expected a kernel time at the lowest load from 1 to %g us, got %lld",
                                   limits::kMaxDurationS * 1e6, *lowest->compute_infer_us));
  const auto seconds = [](std::optional<long long> us) { return static_cast<double>(us.value_or(0)) * 1e-6; };
  LatencyPoint point{static_cast<double>(batch_size), seconds(lowest->compute_infer_us), 0.0, table.path, {}};
  point.overheads_s = {{"client_send", seconds(lowest->client_send_us)},
                       {"network_server_send_recv", seconds(lowest->network_server_us)},
                       {"server_queue", seconds(lowest->server_queue_us)},
                       {"server_compute_input", seconds(lowest->compute_input_us)},
                       {"server_compute_output", seconds(lowest->compute_output_us)},
                       {"client_recv", seconds(lowest->client_recv_us)}};
  kernel_spread_from_percentiles(*lowest, point);
  std::ostringstream load;
  load << table.load_column << ' ' << lowest->load;
  return CalibrationInput{table.path,
                          "perf_analyzer csv",
                          {{"perf_analyzer_batch_size", std::to_string(batch_size)},
                           {"row", "line " + std::to_string(lowest->line) + " (lowest load: " + load.str() + ")"}},
                          {point}};
}

}  // namespace sonicsim::calibration
