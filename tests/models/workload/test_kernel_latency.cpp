#include <doctest/doctest.h>

#include "models/workload/kernel_latency.hpp"

using namespace sonicsim;

TEST_CASE("affine latency is intercept plus per-item cost") {
  const KernelLatency k = AffineLatency{0.002, 47.9e-6};
  CHECK(kernel_latency_s(k, 1693) == doctest::Approx(0.002 + 1693 * 47.9e-6));
}

TEST_CASE("table latency interpolates, hits measured points exactly, and extrapolates") {
  const KernelLatency k = TableLatency{{{1, 0.001}, {64, 0.004}, {256, 0.010}}};
  CHECK(kernel_latency_s(k, 1) == 0.001);
  CHECK(kernel_latency_s(k, 64) == 0.004);
  CHECK(kernel_latency_s(k, 256) == 0.010);
  CHECK(kernel_latency_s(k, 160) == doctest::Approx(0.004 + (160 - 64) * (0.006 / 192)));
  // Above the last point: the slope of the last two points continues.
  CHECK(kernel_latency_s(k, 512) == doctest::Approx(0.010 + 256 * (0.006 / 192)));
  // Below the first point: no faster than the smallest measured batch.
  CHECK(kernel_latency_s(k, 0.5) == 0.001);
  // One point: constant.
  CHECK(kernel_latency_s(TableLatency{{{8, 0.003}}}, 100) == 0.003);
}

TEST_CASE("a scaled curve is every latency times the factor, for each form") {
  // tau_scaled(B) = factor x tau(B) at every batch, including between and beyond a table's points.
  const KernelLatency affine = AffineLatency{0.002, 47.9e-6};
  const KernelLatency table = TableLatency{{{1, 0.001}, {64, 0.004}, {256, 0.010}}};
  const KernelLatency knee = KneeLatency{0.003, 32, 50e-6};
  for (const double factor : {0.5, 1.0, 2.5}) {
    CAPTURE(factor);
    for (const KernelLatency* curve : {&affine, &table, &knee}) {
      const KernelLatency scaled_curve = scaled(*curve, factor);
      for (const double batch : {0.5, 1.0, 16.0, 32.0, 100.0, 1000.0})
        CHECK(kernel_latency_s(scaled_curve, batch) == doctest::Approx(factor * kernel_latency_s(*curve, batch)));
    }
  }
}
