#include "models/workload/shared_device.hpp"

#include <algorithm>
#include <limits>

namespace sonicsim {

void SharedDevice::advance(double now_s) {
  if (!ends_.empty()) attained_s_ += (now_s - now_s_) * rate(running(), overlap_);
  now_s_ = std::max(now_s_, now_s);
}

void SharedDevice::start(int id, double work_s, double now_s) {
  advance(now_s);
  ends_.emplace(attained_s_ + work_s, started_++, id);
}

double SharedDevice::next_end_s() const {
  if (ends_.empty()) return std::numeric_limits<double>::infinity();
  const double left = std::get<0>(*ends_.begin()) - attained_s_;
  return now_s_ + std::max(0.0, left) / rate(running(), overlap_);
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
  return ended;
}

void SharedDevice::clear() {
  ends_.clear();
  attained_s_ = 0;
}

}  // namespace sonicsim
