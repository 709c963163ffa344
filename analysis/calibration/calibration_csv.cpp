#include "analysis/calibration/calibration_csv.hpp"

#include <cmath>
#include <sstream>

#include "analysis/calibration/spread_fit.hpp"
#include "models/io/csv_cells.hpp"
#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::calibration {
namespace {

using CalibrationCsvReader = io::CSVReader<8, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>,
                                           io::throw_on_overflow, io::single_and_empty_line_comment<'#'>>;

// The "# key: value" lines before the column line.
std::vector<std::pair<std::string, std::string>> read_provenance(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (line != kCalibrationCsvMagic)
    throw InputError(path, "line 1", std::string("expected \"") + kCalibrationCsvMagic + "\", got \"" + line + "\"");
  std::vector<std::pair<std::string, std::string>> provenance;
  while (std::getline(in, line) && !line.empty() && line[0] == '#') {
    const auto colon = line.find(": ");
    if (colon == std::string::npos || colon < 3) continue;  // a plain comment
    provenance.emplace_back(line.substr(2, colon - 2), line.substr(colon + 2));
  }
  return provenance;
}

}  // namespace

LatencyStatistic parse_statistic(const std::string& name) {
  if (name == "mean") return LatencyStatistic::Mean;
  if (name == "p50") return LatencyStatistic::P50;
  if (name == "p99") return LatencyStatistic::P99;
  if (name == "throughput") return LatencyStatistic::Throughput;
  throw std::invalid_argument("expected a latency statistic \"mean\", \"p50\", \"p99\" or \"throughput\", got \"" +
                              name + "\"");
}

const char* statistic_name(LatencyStatistic statistic) {
  switch (statistic) {
    case LatencyStatistic::Mean: return "mean";
    case LatencyStatistic::P50: return "p50";
    case LatencyStatistic::P99: return "p99";
    case LatencyStatistic::Throughput: return "throughput";
  }
  return "?";
}

double standard_error(LatencyStatistic statistic, double stddev_s, double repeats) {
  const double of_mean = stddev_s / std::sqrt(repeats);
  switch (statistic) {
    case LatencyStatistic::Mean: return of_mean;
    case LatencyStatistic::P50: return std::sqrt(M_PI / 2) * of_mean;
    case LatencyStatistic::P99: {
      const double z = 2.3263478740408408;  // standard normal 0.99 quantile
      const double density = std::exp(-z * z / 2) / std::sqrt(2 * M_PI);
      return std::sqrt(0.99 * 0.01) / density * of_mean;
    }
    case LatencyStatistic::Throughput: break;  // from the throughput's own error, not the latency spread
  }
  return of_mean;
}

CalibrationInput read_calibration_csv(const std::string& path, LatencyStatistic statistic) {
  return parse_calibration_csv(read_input_file(path, kMaxLogFileBytes, "line 1"), path, statistic);
}

CalibrationInput parse_calibration_csv(const std::string& text, const std::string& path, LatencyStatistic statistic) {
  CalibrationInput input{path, "sonicsim calibration data v1", read_provenance(text, path), {}};
  try {
    CalibrationCsvReader reader(path, text.data(), text.data() + text.size());
    reader.read_header(io::ignore_extra_column | io::ignore_missing_column, "batch_size", "mean_s", "p50_s", "p99_s",
                       "stddev_s", "repeats", "throughput_items_per_s", "throughput_sem_items_per_s");
    const bool by_throughput = statistic == LatencyStatistic::Throughput;
    for (const char* column : {"batch_size", "mean_s", "p50_s", "p99_s", "stddev_s", "repeats"})
      if (!reader.has_column(column))
        throw InputError(path, "column line", std::string("expected a column \"") + column + "\"");
    if (by_throughput && !reader.has_column("throughput_items_per_s"))
      throw InputError(path, "column line", "expected a column \"throughput_items_per_s\" for --statistic throughput");
    char *batch_text = nullptr, *mean_text = nullptr, *p50_text = nullptr, *p99_text = nullptr, *stddev_text = nullptr,
         *repeats_text = nullptr, *throughput_text = nullptr, *throughput_sem_text = nullptr;
    while (reader.read_row(batch_text, mean_text, p50_text, p99_text, stddev_text, repeats_text, throughput_text,
                           throughput_sem_text)) {
      const unsigned line = reader.get_file_line();
      const auto positive = [&](const char* column, const char* text, const char* what) {
        const double x = number_cell(path, line, column, text);
        if (!(x > 0))
          throw InputError(path, cell_location(line, column),
                           std::string("expected a positive ") + what + ", got " + text);
        return x;
      };
      // A latency between a nanosecond and the longest run: 1/latency^2, the fits' weight, stays a
      // finite double (a latency of 1e-310 s made every fit null).
      const auto latency_in_range = [&](const char* column, double latency, const std::string& got) {
        if (!(latency >= kMinLatencyS && latency <= limits::kMaxDurationS))
          throw InputError(path, cell_location(line, column),
                           printf_string("expected a latency from %g s to %g s, got %s", kMinLatencyS,
                                         limits::kMaxDurationS, got.c_str()));
        return latency;
      };
      const auto positive_seconds = [&](const char* column, const char* text) {
        return latency_in_range(column, positive(column, text, "number of seconds"), text);
      };
      const long long batch = integer_cell(path, line, "batch_size", batch_text);
      if (batch < 1) throw InputError(path, cell_location(line, "batch_size"), "expected a batch size of at least 1");
      if (!input.points.empty() && batch <= input.points.back().batch)
        throw InputError(path, cell_location(line, "batch_size"), "expected batch sizes in strictly increasing order");
      const double mean = positive_seconds("mean_s", mean_text);
      const double p50 = positive_seconds("p50_s", p50_text);
      const double p99 = positive_seconds("p99_s", p99_text);
      const double stddev = number_cell(path, line, "stddev_s", stddev_text);
      if (!(stddev >= 0 && stddev <= limits::kMaxDurationS))
        throw InputError(
            path, cell_location(line, "stddev_s"),
            printf_string("expected a standard deviation from 0 to %g s, got %s", limits::kMaxDurationS, stddev_text));
      const long long repeats = integer_cell(path, line, "repeats", repeats_text);
      if (repeats < 1) throw InputError(path, cell_location(line, "repeats"), "expected at least 1 repetition");
      if (by_throughput) {
        // tau = batch / throughput; its standard error by the delta method, batch / throughput^2 times
        // the throughput's, where the file gives one.
        const double throughput = positive("throughput_items_per_s", throughput_text, "throughput in items/s");
        const double tau =
            latency_in_range("throughput_items_per_s", static_cast<double>(batch) / throughput,
                             printf_string("%g s (batch / throughput)", static_cast<double>(batch) / throughput));
        double error = 0;
        if (throughput_sem_text) {
          const double sem = number_cell(path, line, "throughput_sem_items_per_s", throughput_sem_text);
          error = static_cast<double>(batch) / (throughput * throughput) * sem;
          if (!(sem >= 0 && error <= limits::kMaxDurationS))
            throw InputError(
                path, cell_location(line, "throughput_sem_items_per_s"),
                printf_string("expected a standard error of at least 0 that gives the latency one of at most "
                              "%g s, got %s",
                              limits::kMaxDurationS, throughput_sem_text));
        }
        input.points.push_back(LatencyPoint{static_cast<double>(batch), tau, error, path, {}});
      } else {
        const double value = statistic == LatencyStatistic::Mean  ? mean
                             : statistic == LatencyStatistic::P50 ? p50
                                                                  : p99;
        input.points.push_back(LatencyPoint{static_cast<double>(batch),
                                            value,
                                            standard_error(statistic, stddev, static_cast<double>(repeats)),
                                            path,
                                            {}});
      }
      // The spread of single calls (calibrate --spread): their stddev over their mean.
      LatencyPoint& point = input.points.back();
      point.cv = cv_from_moments(mean, stddev, static_cast<double>(repeats));
      point.cv_method = point.cv ? "stddev_s / mean_s of " + std::to_string(repeats) + " calls"
                                 : "one call (repeats 1) measures no spread";
    }
  } catch (const io::error::base& e) {
    rethrow_csv_error(path, e);
  }
  if (input.points.empty()) throw InputError(path, "rows", "expected at least one row of measurements");
  return input;
}

}  // namespace sonicsim::calibration
