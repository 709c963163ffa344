#pragma once
// Kernel latency tau(batch): the GPU time of one execution of a batch of `batch` items.
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sonicsim {

// tau(b) = intercept + per_item * b.
struct AffineLatency {
  double intercept_s;
  double per_item_s;
};

// Measured (batch, latency) points, batch strictly increasing. Between points: linear
// interpolation. Below the first point: the first latency (a smaller batch is not modelled as
// faster than the smallest one measured). Above the last point: the slope of the last two points
// (the throughput-bound regime continues), or the last latency if only one point was measured.
struct TableLatency {
  std::vector<std::pair<double, double>> points;  // (batch items, seconds)
};

// Flat, then linear: tau(b) = flat + per_item * max(0, b - knee_batch). Below the knee the device
// is not yet full and a bigger batch costs (almost) nothing; above it the throughput saturates at
// 1 / per_item items per second.
struct KneeLatency {
  double flat_s;
  double knee_batch;
  double per_item_s;
};

using KernelLatency = std::variant<AffineLatency, TableLatency, KneeLatency>;

double kernel_latency_s(const KernelLatency& model, double batch_items);

// The same curve with every latency multiplied by `factor` (a what-if: a device `factor` times as slow).
KernelLatency scaled(const KernelLatency& model, double factor);

std::string describe(const KernelLatency& model);

}  // namespace sonicsim
