#include "models/workload/shared_device.hpp"

#include <algorithm>
#include <limits>

namespace sonicsim {

double SharedDevice::current_rate() const {
  if (sharing_.mode == DeviceSharing::Mode::Overlap) return rate(running(), sharing_.overlap);
  return occupancy_rate(running(), occupancy_, sharing_.interference);
}

void SharedDevice::advance(double now_s) {
  if (!ends_.empty()) attained_s_ += (now_s - now_s_) * current_rate();
  now_s_ = std::max(now_s_, now_s);
}

// Summed afresh, not kept by adding and subtracting: two shares of 0.5 make exactly 1 whatever ran before.
void SharedDevice::sum_occupancy() {
  occupancy_ = 0;
  for (const auto& kernel : ends_) occupancy_ += std::get<3>(kernel);
}

void SharedDevice::start(int id, double work_s, double now_s, double occupancy) {
  advance(now_s);
  if (!ends_.empty()) work_s += sharing_.switch_cost_s;
  ends_.emplace(attained_s_ + work_s, started_++, id, occupancy);
  if (sharing_.mode == DeviceSharing::Mode::Occupancy) sum_occupancy();
}

double SharedDevice::next_end_s() const {
  if (ends_.empty()) return std::numeric_limits<double>::infinity();
  const double left = std::get<0>(*ends_.begin()) - attained_s_;
  return now_s_ + std::max(0.0, left) / current_rate();
}

std::vector<int> SharedDevice::end_next(double now_s) {
  std::vector<int> ended;
  if (ends_.empty()) return ended;
  now_s_ = std::max(now_s_, now_s);
  // The clock reached the mark: it is the attained work now, exactly, whatever the rounding of the
  // date. Kernels with the very same mark (started together with the same work) end together.
  attained_s_ = std::get<0>(*ends_.begin());
  while (!ends_.empty() && std::get<0>(*ends_.begin()) == attained_s_) {
    ended.push_back(std::get<2>(*ends_.begin()));
    ends_.erase(ends_.begin());
  }
  if (ends_.empty()) attained_s_ = 0;  // idle: the marks of the next busy period start afresh (and stay small)
  if (sharing_.mode == DeviceSharing::Mode::Occupancy) sum_occupancy();
  return ended;
}

void SharedDevice::clear() {
  ends_.clear();
  attained_s_ = 0;
  occupancy_ = 0;
}

}  // namespace sonicsim
