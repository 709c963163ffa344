#include "analysis/calibration/latency_bootstrap.hpp"

#include <algorithm>
#include <set>

#include "analysis/stats/statistics.hpp"
#include "models/workload/rng.hpp"

namespace sonicsim::calibration {
namespace {

std::size_t distinct_count(const std::vector<LatencyPoint>& points) {
  std::vector<double> batches;
  batches.reserve(points.size());
  for (const auto& p : points) batches.push_back(p.batch);
  std::sort(batches.begin(), batches.end());
  return static_cast<std::size_t>(std::unique(batches.begin(), batches.end()) - batches.begin());
}

std::vector<LatencyPoint> resample(LatencyForm form, const std::vector<LatencyPoint>& points, Rng& rng) {
  std::vector<LatencyPoint> drawn;
  do {  // a resample with too few distinct batch sizes cannot be fitted: draw again
    drawn.clear();
    for (std::size_t i = 0; i < points.size(); ++i)
      drawn.push_back(form == LatencyForm::Table ? points[i] : points[rng.below(points.size())]);
  } while (distinct_count(drawn) < static_cast<std::size_t>(min_points(form)));
  std::sort(drawn.begin(), drawn.end(), [](const auto& a, const auto& b) { return a.batch < b.batch; });
  for (auto& p : drawn)  // a latency stays positive: a draw below a tenth of it is clipped there
    p.latency_s = std::max(0.1 * p.latency_s, p.latency_s + p.standard_error_s * rng.standard_normal());
  return drawn;
}

}  // namespace

std::vector<double> band_batches(const std::vector<LatencyPoint>& points) {
  std::set<double> batches;
  for (const auto& p : points) batches.insert(p.batch);
  const double largest = *batches.rbegin();
  for (double b = 1; b < largest; b *= 2)
    if (b > *batches.begin()) batches.insert(b);
  return {batches.begin(), batches.end()};
}

LatencyBand bootstrap_band(LatencyForm form, const std::vector<LatencyPoint>& points,
                           const BootstrapSettings& settings) {
  LatencyBand band;
  band.levels = settings.levels;
  band.batches = band_batches(points);
  Rng rng(mix_seed(settings.seed, static_cast<std::uint64_t>(form)));
  std::vector<std::vector<double>> at_batch(band.batches.size());  // [batch][resample]
  // The fits read batch sizes, latencies and standard errors only: resample copies of just those.
  std::vector<LatencyPoint> bare;
  for (const auto& p : points) bare.push_back(LatencyPoint{p.batch, p.latency_s, p.standard_error_s, {}, {}});
  for (int r = 0; r < settings.resamples; ++r) {
    const KernelLatency curve = fit_form(form, resample(form, bare, rng));
    for (std::size_t i = 0; i < band.batches.size(); ++i)
      at_batch[i].push_back(kernel_latency_s(curve, band.batches[i]));
  }
  for (auto& values : at_batch) std::sort(values.begin(), values.end());
  for (double level : band.levels) {
    std::vector<double>& row = band.latency_s.emplace_back();
    for (const auto& values : at_batch) row.push_back(stats::quantile_sorted(values, level));
  }
  return band;
}

}  // namespace sonicsim::calibration
