#include "analysis/validation/timeseries_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "models/io/input_error.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::validation {
namespace {

// Times are compared to the microsecond (exports and timeseries.csv write at most that).
constexpr double kTimeSlackS = 1e-6;

// A measured sample with the simulated value at the same time and the time it stands for.
struct Aligned {
  double t_s = 0;  // simulated time
  double weight_s = 0;
  double measured = 0, simulated = 0;
};

// The simulated run's span as it is compared: from its first scrape to one scrape interval past
// its last (the last scrape's value holds that long). A run of one scrape has no interval.
struct RunSpan {
  double start_s = 0, end_s = 0;
};

RunSpan run_span(const std::vector<TimeseriesRow>& rows) {
  const double interval = rows.size() > 1 ? rows[1].t_s - rows[0].t_s : 0;
  return {rows.front().t_s, rows.back().t_s + interval};
}

// The last simulated row at or before t (a scrape's value holds until the next scrape), if t is
// inside the run's span.
const TimeseriesRow* row_at(const std::vector<TimeseriesRow>& rows, double t) {
  const auto after = std::upper_bound(rows.begin(), rows.end(), t + kTimeSlackS,
                                      [](double time, const TimeseriesRow& r) { return time < r.t_s; });
  if (after == rows.begin()) return nullptr;
  if (after == rows.end() && t > run_span(rows).end_s + kTimeSlackS) return nullptr;
  return &*std::prev(after);
}

// Samples with a value left out as outside the run: before its t = 0, or after its end.
struct OutsideRun {
  int before = 0, after = 0;
  double last_after_s = 0;  // simulated time of the latest one after the end
};

std::vector<Aligned> align(const MeasuredColumn& m, const std::vector<TimeseriesRow>& rows, double start,
                           OutsideRun& outside) {
  std::vector<Aligned> out;
  if (rows.empty()) return out;
  // Each sample stands for the time to the next point of the export's grid (the last: the median
  // step), but not past the run's end: a sample far beyond the run must not lend its distance to
  // the last one inside.
  std::vector<double> steps;
  for (std::size_t k = 1; k < m.t_s.size(); ++k) steps.push_back(m.t_s[k] - m.t_s[k - 1]);
  std::sort(steps.begin(), steps.end());
  const double typical = steps.empty() ? 1.0 : steps[steps.size() / 2];
  const RunSpan span = run_span(rows);
  const double weight_end = rows.size() > 1 ? span.end_s : INFINITY;
  for (std::size_t k = 0; k < m.t_s.size(); ++k) {
    if (!m.values[k]) continue;
    const double t = m.t_s[k] - start;
    const TimeseriesRow* row = row_at(rows, t);
    if (!row) {
      if (t < span.start_s) {
        ++outside.before;
      } else {
        ++outside.after;
        outside.last_after_s = t;
      }
      continue;
    }
    const std::optional<double> s = simulated_value(*row, m.column);
    if (!s) continue;
    const double next = k + 1 < m.t_s.size() ? m.t_s[k + 1] - start : t + typical;
    const double weight = std::min(next, weight_end) - t;
    if (weight > 0) out.push_back({t, weight, *m.values[k], *s});
  }
  return out;
}

std::string samples(int n) { return n == 1 ? "1 sample" : std::to_string(n) + " samples"; }

// The first time after `step` at which the ready count exceeds its count at the step.
std::optional<double> first_new_ready(const std::vector<std::pair<double, double>>& ready, double step) {
  std::optional<double> level;
  for (const auto& [t, r] : ready) {
    if (t <= step + kTimeSlackS) {
      level = r;
      continue;
    }
    if (!level) level = r;
    if (r > *level + 0.5) return t - step;
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> simulated_value(const TimeseriesRow& row, const std::string& column) {
  if (column == "ready") return row.ready;
  if (column == "metric") return row.metric;
  if (column == "requests_per_s") return row.requests_per_s;
  if (column == "queue_ms") return row.queue_ms;
  if (column == "gpu_utilization") return row.gpu_utilization;
  return std::nullopt;
}

std::vector<double> load_steps(const std::vector<TimeseriesRow>& rows) {
  std::int64_t most = 0;
  for (const auto& r : rows) most = std::max(most, r.jobs_running);
  std::vector<double> steps;
  for (std::size_t k = 1; k < rows.size(); ++k)
    if (most > 0 && 4 * (rows[k].jobs_running - rows[k - 1].jobs_running) >= most) steps.push_back(rows[k - 1].t_s);
  return steps;
}

std::vector<ValidationRow> compare_timeseries(const std::vector<MeasuredColumn>& measured,
                                              const std::vector<TimeseriesRow>& simulated, double start,
                                              const std::vector<double>& load_steps_s, const Tolerances& t,
                                              std::vector<std::string>* notes) {
  std::vector<ValidationRow> rows;
  for (const MeasuredColumn& m : measured) {
    OutsideRun outside;
    const std::vector<Aligned> aligned = align(m, simulated, start, outside);
    if (notes && outside.before)
      notes->push_back(m.path + ": " + samples(outside.before) +
                       " before the simulated run's t = 0 left out (t = 0 is " +
                       printf_string("Unix time %.3f", start) + ")");
    if (notes && outside.after)
      notes->push_back(m.path + ": " + samples(outside.after) +
                       printf_string(" after the simulated run's end (%g s) left out, the last at %g s",
                                     run_span(simulated).end_s, outside.last_after_s));
    if (aligned.empty())
      throw InputError(m.path, "",
                       "no sample of \"" + m.column +
                           "\" falls inside the simulated run with a simulated "
                           "value (check the start time: the export's first sample is the run's t = 0 unless "
                           "--prometheus-start says otherwise)");
    double span = 0, measured_sum = 0, simulated_sum = 0, absolute = 0;
    for (const Aligned& a : aligned) {
      span += a.weight_s;
      measured_sum += a.measured * a.weight_s;
      simulated_sum += a.simulated * a.weight_s;
      absolute += std::abs(a.measured - a.simulated) * a.weight_s;
    }
    const double measured_mean = measured_sum / span, simulated_mean = simulated_sum / span, mae = absolute / span;
    const std::string name = m.column == "ready"            ? "ready replicas"
                             : m.column == "metric"         ? "scraped metric"
                             : m.column == "requests_per_s" ? "requests/s"
                             : m.column == "queue_ms"       ? "queue time per request (ms)"
                                                            : "GPU utilisation";
    rows.push_back(
        compare_value("prom_" + m.column + "_mean", name + ", time-weighted mean", measured_mean, simulated_mean, t));
    ValidationRow error = compare_value("prom_" + m.column + "_mae", name + ", mean abs. error", 0, mae, t);
    error.measured = measured_mean;
    error.error = measured_mean != 0 ? mae / std::abs(measured_mean) : (mae == 0 ? 0.0 : INFINITY);
    error.pass = std::abs(error.error) <= error.tolerance;
    rows.push_back(error);
    if (m.column != "ready") continue;

    std::map<long, std::pair<double, double>> at_level;  // ready count -> measured, simulated seconds
    for (const Aligned& a : aligned) {
      at_level[std::lround(a.measured)].first += a.weight_s;
      at_level[std::lround(a.simulated)].second += a.weight_s;
    }
    for (const auto& [level, seconds] : at_level) {
      const double ms = seconds.first / span, ss = seconds.second / span;
      const std::string id = "prom_ready_time_at_" + std::to_string(level);
      ValidationRow share = compare_value(id, printf_string("share of time at %ld ready", level), ms, ss, t);
      share.error = ss - ms;  // a difference of shares: a level never reached has no relative error
      share.pass = std::abs(share.error) <= share.tolerance;
      rows.push_back(share);
    }
    std::vector<std::pair<double, double>> measured_ready, simulated_ready;
    for (std::size_t k = 0; k < m.t_s.size(); ++k)
      if (m.values[k]) measured_ready.emplace_back(m.t_s[k] - start, *m.values[k]);
    for (const auto& r : simulated) simulated_ready.emplace_back(r.t_s, r.ready);
    for (double step : load_steps_s) {
      const auto ml = first_new_ready(measured_ready, step), sl = first_new_ready(simulated_ready, step);
      if (!ml && !sl) continue;
      ValidationRow lag = compare_value("prom_ready_lag", printf_string("lag, step at %g s to new ready (s)", step),
                                        ml.value_or(NAN), sl.value_or(NAN), t);
      if (!ml || !sl) lag.error = INFINITY, lag.pass = false;
      rows.push_back(lag);
    }
  }
  return rows;
}

}  // namespace sonicsim::validation
