#pragma once
// Reads the calibration data format of calibration/data/README.md: a "# sonicsim calibration data
// v1" line, "# key: value" provenance lines, then batch_size,mean_s,p50_s,p99_s,stddev_s,repeats,...
#include <string>

#include "analysis/calibration/latency_points.hpp"

namespace sonicsim::calibration {

inline constexpr const char* kCalibrationCsvMagic = "# sonicsim calibration data v1";

// The shortest latency a measurement may give (1 ns; no inference call is shorter); the longest is
// the longest run, limits::kMaxDurationS.
inline constexpr double kMinLatencyS = 1e-9;

// Throughput: batch / throughput_items_per_s, the harmonic mean of the call times where the
// throughput is the mean of batch/t over calls (calibration/published/README-batch-scans.md).
enum class LatencyStatistic { Mean, P50, P99, Throughput };

LatencyStatistic parse_statistic(const std::string& name);  // "mean", "p50", "p99", "throughput"
const char* statistic_name(LatencyStatistic statistic);

// The standard error of a statistic of n samples with standard deviation s, assuming roughly normal
// latencies: s/sqrt(n) for the mean, sqrt(pi/2) s/sqrt(n) for the median, and
// sqrt(0.99 * 0.01) / phi(z_0.99) s/sqrt(n) for the 99th percentile.
double standard_error(LatencyStatistic statistic, double stddev_s, double repeats);

// Throws InputError("FILE", "line N, column NAME", ...) on anything malformed, and on latencies
// (or batch / throughput) outside [kMinLatencyS, limits::kMaxDurationS].
CalibrationInput read_calibration_csv(const std::string& path, LatencyStatistic statistic);
CalibrationInput parse_calibration_csv(const std::string& text, const std::string& path, LatencyStatistic statistic);

}  // namespace sonicsim::calibration
