// The occupancy u(B) of one execution, read off tau(B): u(B) = B / (tau(B) X*) below the batch B*
// where the peak rate X* = max B / tau(B) is first reached, and 1 from B* on. Each expected value is
// worked out by hand from the curve's numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "models/workload/occupancy.hpp"

using namespace sonicsim;

namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

double u(const KernelLatency& latency, double max_units, double units) {
  return occupancy_curve(latency, max_units).at(units, kernel_latency_s(latency, units));
}

}  // namespace

TEST_CASE("tau in proportion to the batch fills the device at every batch: u = 1") {
  const KernelLatency proportional = AffineLatency{0, 1e-3};
  const OccupancyCurve curve = occupancy_curve(proportional, 64);
  CHECK(curve.peak_rate == doctest::Approx(1000));
  CHECK(curve.full_units == 1);
  for (const double b : {1.0, 2.0, 17.0, 64.0}) CHECK(u(proportional, 64, b) == 1);
}

TEST_CASE("affine tau = a + b B over 1..B_max: u(B) = B (a + b B_max) / (B_max (a + b B))") {
  // a = 2 ms, b = 1 ms, B_max = 8: X* = 8 / 10 ms = 800/s at B* = 8; u(1) = (1 / 3 ms) / 800 = 5/12.
  const KernelLatency affine = AffineLatency{2e-3, 1e-3};
  const OccupancyCurve curve = occupancy_curve(affine, 8);
  CHECK(curve.peak_rate == doctest::Approx(800));
  CHECK(curve.full_units == 8);
  for (const double b : {1.0, 2.0, 4.0, 7.0})
    CHECK(u(affine, 8, b) == doctest::Approx(b * (2e-3 + 8e-3) / (8 * (2e-3 + 1e-3 * b))));
  CHECK(u(affine, 8, 8) == 1);
  // Unbounded (a kernel counting elements): X* is the limit 1 / b, reached by no batch.
  const OccupancyCurve open = occupancy_curve(affine, kUnbounded);
  CHECK(open.peak_rate == doctest::Approx(1000));
  CHECK(std::isinf(open.full_units));
  CHECK(u(affine, kUnbounded, 998) == doctest::Approx(998.0 / 1000));
}

TEST_CASE("a flat tau: the device is full where tau stops being flat, u = B / knee below it") {
  // flat 4 ms to B = 8, then 1 ms per item: X* = 8 / 4 ms = 2000/s at the knee (at B = 64:
  // 64 / 60 ms = 1067/s), so u(B) = B / 8 below it.
  const KernelLatency knee = KneeLatency{4e-3, 8, 1e-3};
  const OccupancyCurve curve = occupancy_curve(knee, 64);
  CHECK(curve.peak_rate == doctest::Approx(2000));
  CHECK(curve.full_units == 8);
  CHECK(u(knee, 64, 1) == doctest::Approx(1.0 / 8));
  CHECK(u(knee, 64, 6) == doctest::Approx(6.0 / 8));
  CHECK(u(knee, 64, 20) == 1);
  // 0.25 ms per item after the knee and no bound: the rate keeps rising to 4000/s, never reached:
  // u(8) = 8 / (4 ms x 4000) = 1/2, u(100) = 100 / ((4 + 23) ms x 4000) = 100/108.
  const KernelLatency steep = KneeLatency{4e-3, 8, 0.25e-3};
  CHECK(occupancy_curve(steep, kUnbounded).peak_rate == doctest::Approx(4000));
  CHECK(u(steep, kUnbounded, 8) == doctest::Approx(0.5));
  CHECK(u(steep, kUnbounded, 100) == doctest::Approx(100.0 / 108));
}

TEST_CASE("a table: the peak is the first point of the best rate; between points tau interpolates") {
  // (1, 1 ms), (4, 2 ms), (8, 4 ms): rates 1000, 2000, 2000/s: full from B = 4.
  // u(2) = 2 / (tau(2) = 4/3 ms x 2000) = 3/4.
  const KernelLatency table = TableLatency{{{1, 1e-3}, {4, 2e-3}, {8, 4e-3}}};
  const OccupancyCurve curve = occupancy_curve(table, 8);
  CHECK(curve.peak_rate == doctest::Approx(2000));
  CHECK(curve.full_units == 4);
  CHECK(u(table, 8, 2) == doctest::Approx(0.75));
  CHECK(u(table, 8, 6) == 1);
}

TEST_CASE("a constant tau: half the device for half the largest batch; nothing where batches are unbounded") {
  const KernelLatency constant = AffineLatency{5e-3, 0};
  CHECK(u(constant, 2, 1) == doctest::Approx(0.5));
  CHECK(u(constant, 2, 2) == 1);
  CHECK(u(constant, 1'000'000, 1) == doctest::Approx(1e-6));
  const OccupancyCurve open = occupancy_curve(constant, kUnbounded);
  CHECK(std::isinf(open.peak_rate));
  CHECK(u(constant, kUnbounded, 1'000) == 0);
}
