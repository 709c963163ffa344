#pragma once
// Measured kernel latencies as `sonicsim calibrate` fits them: one point per batch size.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim::calibration {

struct LatencyPoint {
  double batch = 0;             // items per inference call
  double latency_s = 0;         // the chosen statistic (mean, p50 or p99) of one call
  double standard_error_s = 0;  // of that statistic; 0 when the input gives no spread
  std::string input;            // the file it came from
  // perf_analyzer inputs only: the other columns of the chosen row (client send, network+server,
  // queue, compute input/output, client receive), in seconds.
  std::vector<std::pair<std::string, double>> overheads_s;
  // The coefficient of variation of single calls at this batch size, where the input gives one,
  // and how it was found (or why there is none).
  std::optional<double> cv = std::nullopt;
  std::string cv_method = {};
};

// One input file: what kind it was, its provenance and its points.
struct CalibrationInput {
  std::string path;
  std::string kind;                                             // "sonicsim calibration data v1" or "perf_analyzer csv"
  std::vector<std::pair<std::string, std::string>> provenance;  // header keys in file order
  std::vector<LatencyPoint> points;
};

}  // namespace sonicsim::calibration
