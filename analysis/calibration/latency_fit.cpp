#include "analysis/calibration/latency_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Dense>

#include "analysis/calibration/knee_grid.hpp"

namespace sonicsim::calibration {
namespace {

struct Line {
  double intercept = 0, slope = 0, cost = 0;  // cost: sum of squared relative residuals
};

// Least squares of latency ~ intercept + slope * x(batch), relative residuals.
template <typename Regressor>
Line relative_least_squares(const std::vector<LatencyPoint>& points, Regressor x) {
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd design(n, 2);
  Eigen::VectorXd target = Eigen::VectorXd::Ones(n);  // latency / latency
  for (Eigen::Index i = 0; i < n; ++i) {
    const double w = 1.0 / points[i].latency_s;
    design(i, 0) = w;
    design(i, 1) = w * x(points[i].batch);
  }
  const Eigen::Vector2d beta = design.colPivHouseholderQr().solve(target);
  return Line{beta(0), beta(1), (design * beta - target).squaredNorm()};
}

// The best constant: minimises sum (1 - c / y)^2.
Line relative_constant(const std::vector<LatencyPoint>& points) {
  double sum_inv = 0, sum_inv2 = 0;
  for (const auto& p : points) {
    sum_inv += 1 / p.latency_s;
    sum_inv2 += 1 / (p.latency_s * p.latency_s);
  }
  Line line{sum_inv / sum_inv2, 0, 0};
  for (const auto& p : points) line.cost += std::pow(1 - line.intercept / p.latency_s, 2);
  return line;
}

// Flat then linear from `knee`, with a slope that may not be negative.
Line knee_line(const std::vector<LatencyPoint>& points, double knee) {
  const Line line = relative_least_squares(points, [knee](double b) { return std::max(0.0, b - knee); });
  return line.slope >= 0 ? line : relative_constant(points);
}

std::vector<double> distinct_batches(const std::vector<LatencyPoint>& points) {
  std::vector<double> batches;
  for (const auto& p : points) batches.push_back(p.batch);
  std::sort(batches.begin(), batches.end());
  batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
  return batches;
}

void require_points(LatencyForm form, const std::vector<LatencyPoint>& points) {
  const int distinct = static_cast<int>(distinct_batches(points).size());
  if (distinct < min_points(form))
    throw std::invalid_argument(std::string("the ") + form_name(form) + " form needs at least " +
                                std::to_string(min_points(form)) + " distinct batch sizes, got " +
                                std::to_string(distinct));
}

}  // namespace

const char* form_name(LatencyForm form) {
  switch (form) {
    case LatencyForm::Table: return "table";
    case LatencyForm::Affine: return "affine";
    case LatencyForm::Knee: return "knee";
  }
  return "?";
}

LatencyForm parse_form(const std::string& name) {
  for (LatencyForm form : kAllForms)
    if (name == form_name(form)) return form;
  throw std::invalid_argument("expected a latency form \"table\", \"affine\" or \"knee\", got \"" + name + "\"");
}

int min_points(LatencyForm form) {
  switch (form) {
    case LatencyForm::Table: return 1;
    case LatencyForm::Affine: return 2;
    case LatencyForm::Knee: return 3;
  }
  return 1;
}

TableLatency fit_table(const std::vector<LatencyPoint>& points) {
  require_points(LatencyForm::Table, points);
  TableLatency table;
  for (const auto& p : points) table.points.emplace_back(p.batch, p.latency_s);
  return table;
}

AffineLatency fit_affine(const std::vector<LatencyPoint>& points) {
  require_points(LatencyForm::Affine, points);
  const Line line = relative_least_squares(points, [](double b) { return b; });
  return AffineLatency{line.intercept, line.slope};
}

double knee_cost(const std::vector<LatencyPoint>& points, double knee) { return knee_line(points, knee).cost; }

// The knee is searched on a geometric grid between consecutive measured batch sizes (knee_grid.hpp),
// then refined by golden-section search around the best grid point. It stays below the
// second-largest batch, so that at least two distinct batch sizes determine the slope.
KneeLatency fit_knee(const std::vector<LatencyPoint>& points) {
  require_points(LatencyForm::Knee, points);
  const std::vector<double> batches = distinct_batches(points);
  const auto grid = [&](std::size_t i) { return grid_knee(batches, i); };
  double best_cost = 0;
  const std::size_t best = best_grid_knee(
      approximate_knee_costs(points, batches), [&](std::size_t i) { return knee_line(points, grid(i)).cost; },
      best_cost);
  double lo = grid(best == 0 ? 0 : best - 1);
  double hi = best + 1 < knee_grid_size(batches) ? grid(best + 1) : batches[batches.size() - 2];
  double knee = grid(best);
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
  double c1 = knee_line(points, x1).cost, c2 = knee_line(points, x2).cost;
  for (int iteration = 0; iteration < 60; ++iteration) {
    if (c1 <= c2) {
      hi = x2, x2 = x1, c2 = c1;
      x1 = hi - ratio * (hi - lo), c1 = knee_line(points, x1).cost;
    } else {
      lo = x1, x1 = x2, c1 = c2;
      x2 = lo + ratio * (hi - lo), c2 = knee_line(points, x2).cost;
    }
  }
  if (std::min(c1, c2) < best_cost) knee = c1 <= c2 ? x1 : x2;
  const Line line = knee_line(points, knee);
  return KneeLatency{line.intercept, knee, line.slope};
}

KernelLatency fit_form(LatencyForm form, const std::vector<LatencyPoint>& points) {
  switch (form) {
    case LatencyForm::Table: return fit_table(points);
    case LatencyForm::Affine: return fit_affine(points);
    case LatencyForm::Knee: return fit_knee(points);
  }
  throw std::logic_error("unknown latency form");
}

FitQuality assess_fit(const KernelLatency& curve, const std::vector<LatencyPoint>& points) {
  FitQuality quality;
  double mean = 0;
  for (const auto& p : points) mean += p.latency_s / static_cast<double>(points.size());
  double ss_res = 0, ss_tot = 0, sum_rel2 = 0;
  for (const auto& p : points) {
    const double fitted = kernel_latency_s(curve, p.batch);
    quality.fitted_s.push_back(fitted);
    ss_res += std::pow(fitted - p.latency_s, 2);
    ss_tot += std::pow(p.latency_s - mean, 2);
    const double rel = std::abs(fitted / p.latency_s - 1);
    sum_rel2 += rel * rel;
    if (rel > quality.max_relative_error || quality.max_relative_error_batch == 0) {
      quality.max_relative_error = rel;
      quality.max_relative_error_batch = p.batch;
    }
  }
  quality.r_squared = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1.0 : 0.0);
  quality.rms_relative_error = std::sqrt(sum_rel2 / static_cast<double>(points.size()));
  return quality;
}

}  // namespace sonicsim::calibration
