#pragma once
// Things whose end date is known when they start, ended in maestro by kernel timers
// (sim/simulated_time.hpp): those of one date end together under one timer, in the order they were
// added.
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "sim/simulated_time.hpp"

namespace sonicsim::sim {

template <class T>
class DatedEnds {
 public:
  // `end` is called in maestro at each date, with what ends then.
  explicit DatedEnds(std::function<void(std::vector<T>)> end) : end_(std::move(end)) {}
  DatedEnds(const DatedEnds&) = delete;
  DatedEnds& operator=(const DatedEnds&) = delete;

  void add(double date, T item) {
    auto [due, first] = by_date_.try_emplace(date);
    due->second.push_back(std::move(item));
    if (first) at_date(date, [this, date, generation = generation_] { end_due(date, generation); });
  }
  // What has not ended yet, by date.
  const std::map<double, std::vector<T>>& pending() const { return by_date_; }
  // Forgets everything pending: timers already set end nothing.
  void clear() {
    by_date_.clear();
    ++generation_;
  }

 private:
  void end_due(double date, std::uint64_t generation) {
    if (generation != generation_) return;  // set before clear()
    const auto due = by_date_.find(date);
    std::vector<T> items = std::move(due->second);
    by_date_.erase(due);
    end_(std::move(items));
  }

  std::function<void(std::vector<T>)> end_;
  std::map<double, std::vector<T>> by_date_;
  std::uint64_t generation_ = 0;
};

}  // namespace sonicsim::sim
