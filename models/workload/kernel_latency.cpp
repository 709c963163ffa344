#include "models/workload/kernel_latency.hpp"

#include <algorithm>
#include <sstream>

namespace sonicsim {
namespace {

double interpolate(const TableLatency& table, double b) {
  const auto& p = table.points;
  if (b <= p.front().first) return p.front().second;
  if (b >= p.back().first) {
    if (p.size() == 1) return p.back().second;
    const auto& [b0, t0] = p[p.size() - 2];
    const auto& [b1, t1] = p.back();
    return t1 + (b - b1) * (t1 - t0) / (b1 - b0);
  }
  const auto upper = std::upper_bound(p.begin(), p.end(), b, [](double x, const auto& pt) { return x < pt.first; });
  const auto& [b1, t1] = *upper;
  const auto& [b0, t0] = *(upper - 1);
  return t0 + (b - b0) * (t1 - t0) / (b1 - b0);
}

}  // namespace

double kernel_latency_s(const KernelLatency& model, double batch_items) {
  if (const auto* affine = std::get_if<AffineLatency>(&model)) {
    return affine->intercept_s + affine->per_item_s * batch_items;
  }
  if (const auto* knee = std::get_if<KneeLatency>(&model)) {
    return knee->flat_s + knee->per_item_s * std::max(0.0, batch_items - knee->knee_batch);
  }
  return interpolate(std::get<TableLatency>(model), batch_items);
}

KernelLatency scaled(const KernelLatency& model, double factor) {
  if (const auto* affine = std::get_if<AffineLatency>(&model))
    return AffineLatency{affine->intercept_s * factor, affine->per_item_s * factor};
  if (const auto* knee = std::get_if<KneeLatency>(&model))
    return KneeLatency{knee->flat_s * factor, knee->knee_batch, knee->per_item_s * factor};
  TableLatency table = std::get<TableLatency>(model);
  for (auto& point : table.points) point.second *= factor;
  return table;
}

std::string describe(const KernelLatency& model) {
  std::ostringstream out;
  if (const auto* affine = std::get_if<AffineLatency>(&model)) {
    out << "affine: " << affine->intercept_s * 1e3 << " ms + " << affine->per_item_s * 1e6 << " us/item";
  } else if (const auto* knee = std::get_if<KneeLatency>(&model)) {
    out << "knee: " << knee->flat_s * 1e3 << " ms up to batch " << knee->knee_batch << ", then "
        << knee->per_item_s * 1e6 << " us/item";
  } else {
    out << "table of " << std::get<TableLatency>(model).points.size() << " points";
  }
  return out.str();
}

}  // namespace sonicsim
