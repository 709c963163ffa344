// Bands and first-order indices over a design's runs, checked on outputs whose variance shares are
// known in closed form: for Y = a X1 + b X2 with X1, X2 independent and uniform on [0, 1),
// Var(E[Y|X1]) / Var(Y) = a^2 / (a^2 + b^2) (each term's variance is its coefficient^2 / 12).
// An estimate of an index S from n runs scatters by about sqrt(4 S (1 - S)^2 / n) (the correlation
// ratio's large-sample variance): 2,000 runs put the tolerance of 0.05 beyond 2.5 standard deviations.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/stats/uncertainty.hpp"
#include "analysis/uncertainty_report.hpp"
#include "models/scenario/unknowns/unknowns_design.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

std::vector<DeclaredUnknown> two_ranges() {
  return find_declared_unknowns(json::parse(R"({"a": {"between": [0, 1]}, "b": {"between": [0, 1]}})"), "s.json");
}

std::vector<double> column(const std::vector<DesignPoint>& points, std::size_t c) {
  std::vector<double> out;
  for (const DesignPoint& p : points) out.push_back(p[c]);
  return out;
}

}  // namespace

TEST_CASE("a band is the median and the 5% and 95% quantiles, interpolated linearly") {
  std::vector<double> v;
  for (int i = 100; i >= 0; --i) v.push_back(i);  // order does not matter
  CHECK(stats::band_of(v) == stats::Band{50, 5, 95});
  CHECK(stats::band_of({3.0}) == stats::Band{3, 3, 3});
  CHECK(stats::band_of({0.0, 10.0}) == stats::Band{5, 0.5, 9.5});
}

TEST_CASE("first-order indices of a sum of two uniforms are their closed-form variance shares") {
  const auto unknowns = two_ranges();
  const std::vector<DesignPoint> points = design_batch(unknowns, 2000, 11, 0);
  const std::vector<double> x1 = column(points, 0), x2 = column(points, 1);
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{{1, 0}, {1, 2}, {3, 1}}) {
    std::vector<double> y;
    for (std::size_t i = 0; i < points.size(); ++i) y.push_back(a * x1[i] + b * x2[i]);
    const double s1 = a * a / (a * a + b * b);
    CHECK(std::fabs(stats::first_order_index(x1, y, 0) - s1) < 0.05);
    CHECK(std::fabs(stats::first_order_index(x2, y, 0) - (1 - s1)) < 0.05);
  }
}

TEST_CASE("a curved effect counts whole, not cut into steps: Y = sin(2 pi X1) has index 1") {
  const auto unknowns = two_ranges();
  const std::vector<DesignPoint> points = design_batch(unknowns, 100, 3, 0);
  std::vector<double> y;
  for (const DesignPoint& p : points) y.push_back(std::sin(2 * M_PI * p[0]));
  CHECK(stats::first_order_index(column(points, 0), y, 0) > 0.95);
  CHECK(stats::first_order_index(column(points, 1), y, 0) < 0.05);
}

TEST_CASE("a choice's index is the share of its alternatives' means") {
  // Y = 3 [choice is the second] + 3 X: Var(3B) = 9/4 (B Bernoulli(1/2)), Var(3X) = 9/12.
  const auto unknowns =
      find_declared_unknowns(json::parse(R"({"a": {"one_of": ["p", "q"]}, "b": {"between": [0, 1]}})"), "s.json");
  const std::vector<DesignPoint> points = design_batch(unknowns, 2000, 5, 0);
  std::vector<double> y;
  for (const DesignPoint& p : points) y.push_back(3.0 * (unknowns[0].value_at(p[0]) == "q") + 3.0 * p[1]);
  const double expected = (9.0 / 4) / (9.0 / 4 + 9.0 / 12);
  CHECK(std::fabs(stats::first_order_index(column(points, 0), y, 2) - expected) < 0.05);
  CHECK(std::fabs(stats::first_order_index(column(points, 1), y, 0) - (1 - expected)) < 0.05);
}

TEST_CASE("an output that does not vary has no index, and says so") {
  const auto unknowns = two_ranges();
  const std::vector<DesignPoint> points = design_batch(unknowns, 20, 1, 0);
  CHECK(std::isnan(stats::first_order_index(column(points, 0), std::vector<double>(20, 4.0), 0)));
  const UnknownsSummary s = summarize_unknowns(
      unknowns, points, {{"mean event time", "s", std::vector<double>(20, 4.0)}}, "Latin hypercube", 1, 2, "--samples");
  REQUIRE(s.outputs.size() == 1);
  CHECK(s.outputs[0].median == 4.0);
  CHECK_FALSE(s.outputs[0].first_order_index[0].index.has_value());
  CHECK(format_unknowns(s).find("mean event time") != std::string::npos);
  CHECK(format_unknowns(s).find("does not vary") != std::string::npos);
}

TEST_CASE("a band is steady when another batch moves its median and ends by at most 5% of its width") {
  const stats::Band before{10, 8, 12};
  CHECK(band_steady(before, {10.1, 8.1, 12.2}));    // width 4.1: moves up to 0.205 allowed
  CHECK_FALSE(band_steady(before, {10, 8, 12.5}));  // the top end moved 0.5
  // A band of width 0 is steady within 0.1% of its median.
  CHECK(band_steady({100, 100, 100}, {100.05, 100.05, 100.05}));
  CHECK_FALSE(band_steady({100, 100, 100}, {100.2, 100.2, 100.2}));
}
