#pragma once
// Kernels sharing one device. Every running kernel progresses at the same rate r (a fraction of its
// speed alone), set by how the device is shared:
//
// - by an overlap fraction f in [0, 1] (kernel_overlap): while k kernels run,
//
//       r = 1 / (1 + (k - 1)(1 - f)),
//
//   f = 0 is time-sharing (two kernels each take twice as long, what SimGrid does with a one-core
//   host); f = 1 is full concurrency; between, the device's throughput with k kernels, k r, grows
//   from 1 to k. How to measure f: scenarios/README.md ("Kernels sharing a device").
//
// - by occupancy: each kernel needs a share u of the device (models/workload/occupancy.hpp), and
//   while k kernels of shares summing to U run,
//
//       r = 1 / (max(1, U) (1 + s (k - 1))),
//
//   so kernels slow down only once their shares exceed the device (U > 1), each by the same factor,
//   and every concurrent kernel beyond the first adds an interference cost s (context and cache
//   switching; 0 unless a source gives it). u = 1 for every kernel is time-sharing exactly; u -> 0
//   full overlap; two kernels of u = 0.5 each run at their speed alone.
//
// Either way a kernel that starts while another runs on the device may add a switching cost c of
// device work (kernel_switch_cost): a cost per execution, whatever its batch, where the interference
// s is a share of it. With time-sharing two busy kernels of work w each take 2 (w + c).
//
// One clock of attained work serves all: the work each kernel has done since the device's start,
// v(t), grows at r(t). A kernel that starts at v0 with work w ends when v reaches v0 + w; kernels
// end in the order of those marks, whatever happens in between, and the next end is (mark - v) / r
// from now. Pure: the caller says when time passes (no clock, no timers of its own).
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

namespace sonicsim {

struct DeviceSharing {
  enum class Mode { Overlap, Occupancy };
  Mode mode = Mode::Overlap;
  double overlap = 0;        // f, with Mode::Overlap
  double interference = 0;   // s, with Mode::Occupancy
  double switch_cost_s = 0;  // c: device work a kernel adds when it starts while another runs

  static DeviceSharing by_overlap(double f, double switch_cost_s = 0) { return {Mode::Overlap, f, 0, switch_cost_s}; }
  static DeviceSharing by_occupancy(double s, double switch_cost_s = 0) {
    return {Mode::Occupancy, 0, s, switch_cost_s};
  }
};

class SharedDevice {
 public:
  explicit SharedDevice(double overlap) : sharing_(DeviceSharing::by_overlap(overlap)) {}
  explicit SharedDevice(DeviceSharing sharing) : sharing_(sharing) {}

  // Each kernel's rate while `running` kernels share a device of overlap f.
  static double rate(int running, double overlap) { return 1.0 / (1.0 + (running - 1) * (1.0 - overlap)); }
  // Each kernel's rate while `running` kernels of shares summing to `occupancy` run, with
  // interference s per concurrent kernel.
  static double occupancy_rate(int running, double occupancy, double interference) {
    return 1.0 / ((occupancy > 1 ? occupancy : 1.0) * (1.0 + interference * (running - 1)));
  }

  // Kernel `id` of `work_s` seconds alone starts at `now_s` (not before the last date seen); by
  // occupancy it needs `occupancy` of the device (ignored by an overlap fraction). Started while
  // another kernel runs, its work is `work_s` plus the switching cost.
  void start(int id, double work_s, double now_s, double occupancy = 1);
  // The date the next kernel ends; +inf while none runs.
  double next_end_s() const;
  // The kernels that end at `now_s`, which must be next_end_s(): those whose work is done, in the
  // order they started. They leave the device; the others go on at the new rate.
  std::vector<int> end_next(double now_s);
  // Forgets every kernel (the server failed): an idle device whose attained work starts afresh.
  void clear();
  int running() const { return static_cast<int>(ends_.size()); }

 private:
  double current_rate() const;
  // Brings the attained work up to `now_s` at the current rate.
  void advance(double now_s);
  // The shares of the running kernels, summed in the order of their ends.
  void sum_occupancy();

  DeviceSharing sharing_;
  double now_s_ = 0;       // when the attained work was last brought up to date
  double attained_s_ = 0;  // v: the work every running kernel has done since the device's start
  double occupancy_ = 0;   // U: the running kernels' shares
  std::uint64_t started_ = 0;
  // Running kernels: (the attained work at which each ends, start order, id, occupancy).
  std::set<std::tuple<double, std::uint64_t, int, double>> ends_;
};

}  // namespace sonicsim
