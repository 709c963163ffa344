#pragma once
// Kernels sharing one device, as processor sharing with an overlap fraction f in [0, 1]: while k
// kernels run, each progresses at the rate
//
//     r(k) = 1 / (1 + (k - 1)(1 - f))
//
// of its speed alone, so a kernel of time w alone that runs beside others throughout takes
// w / r(k). f = 0 is time-sharing (two kernels each take twice as long, what SimGrid does with a
// one-core host); f = 1 is full concurrency (each takes its time alone); between, the device's
// throughput with k kernels, k r(k), grows from 1 to k. How to measure f: scenarios/README.md
// ("Kernels sharing a device").
//
// Every running kernel progresses at the same rate, so one clock of attained work serves them
// all: the work each kernel has done since the device's start, v(t), grows at r(k(t)). A kernel
// that starts at v0 with work w ends when v reaches v0 + w; kernels end in the order of those
// marks, whatever happens in between, and the next end is (mark - v) / r(k) from now. Pure: the
// caller says when time passes (no clock, no timers of its own).
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

namespace sonicsim {

class SharedDevice {
 public:
  explicit SharedDevice(double overlap) : overlap_(overlap) {}

  // Each kernel's rate while `running` kernels share a device of overlap f.
  static double rate(int running, double overlap) { return 1.0 / (1.0 + (running - 1) * (1.0 - overlap)); }

  // Kernel `id` of `work_s` seconds alone starts at `now_s` (not before the last date seen).
  void start(int id, double work_s, double now_s);
  // The date the next kernel ends; +inf while none runs.
  double next_end_s() const;
  // The kernels that end at `now_s`, which must be next_end_s(): those whose work is done, in the
  // order they started. They leave the device; the others go on at the new rate.
  std::vector<int> end_next(double now_s);
  // Forgets every kernel (the server failed): an idle device whose attained work starts afresh.
  void clear();
  int running() const { return static_cast<int>(ends_.size()); }

 private:
  // Brings the attained work up to `now_s` at the current rate.
  void advance(double now_s);

  double overlap_;
  double now_s_ = 0;       // when the attained work was last brought up to date
  double attained_s_ = 0;  // v: the work every running kernel has done since the device's start
  std::uint64_t started_ = 0;
  // Running kernels: (the attained work at which each ends, start order, id).
  std::set<std::tuple<double, std::uint64_t, int>> ends_;
};

}  // namespace sonicsim
