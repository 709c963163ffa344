// Kernels sharing a device by an overlap fraction f: completion times worked out by hand for two
// and three kernels at f = 0, 0.5 and 1 (and at the end, by occupancy). While k kernels run each progresses at
// r(k) = 1 / (1 + (k - 1)(1 - f)): r(2) = 1/2, 2/3, 1 and r(3) = 1/3, 1/2, 1 for f = 0, 0.5, 1.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <vector>

#include "models/workload/shared_device.hpp"

using namespace sonicsim;

namespace {

struct Kernel {
  int id;
  double work_s;
  double start_s;
};

// Runs the kernels (by start date) to the end; returns each one's end date.
std::map<int, double> run_device(double overlap, const std::vector<Kernel>& kernels) {
  SharedDevice device(overlap);
  std::map<int, double> ends;
  std::size_t next = 0;
  while (next < kernels.size() || device.running() > 0) {
    const double end = device.next_end_s();
    if (next < kernels.size() && kernels[next].start_s < end) {
      device.start(kernels[next].id, kernels[next].work_s, kernels[next].start_s);
      ++next;
      continue;
    }
    for (int id : device.end_next(end)) ends[id] = end;
  }
  return ends;
}

}  // namespace

TEST_CASE("the rate of each of k kernels is 1 / (1 + (k - 1)(1 - f))") {
  CHECK(SharedDevice::rate(1, 0.0) == 1.0);
  CHECK(SharedDevice::rate(2, 0.0) == 0.5);
  CHECK(SharedDevice::rate(3, 0.5) == 0.5);
  CHECK(SharedDevice::rate(2, 0.5) == doctest::Approx(2.0 / 3));
  CHECK(SharedDevice::rate(4, 1.0) == 1.0);
}

TEST_CASE("two kernels: A of 2 s from t = 0, B of 1 s from t = 0.5") {
  // A runs alone until 0.5 (0.5 s of work done, 1.5 s left); then both run at r(2) and B, with
  // less left, ends first, after 1 / r(2); A does as much meanwhile, then runs its rest alone.
  //   f = 0:   B ends 0.5 + 1 / (1/2) = 2.5; A has 1.5 - 1 = 0.5 left, ends 3.0.
  //   f = 0.5: B ends 0.5 + 1 / (2/3) = 2.0; A ends 2.0 + 0.5 = 2.5.
  //   f = 1:   B ends 0.5 + 1 = 1.5; A ends 2.0 (never slowed).
  const std::vector<Kernel> kernels{{0, 2.0, 0.0}, {1, 1.0, 0.5}};
  for (const auto& expected : {std::tuple{0.0, 2.5, 3.0}, {0.5, 2.0, 2.5}, {1.0, 1.5, 2.0}}) {
    // Plain variables, not a structured binding: CAPTURE makes a lambda, and clang 14 cannot capture bindings.
    const double f = std::get<0>(expected), b_end = std::get<1>(expected), a_end = std::get<2>(expected);
    CAPTURE(f);
    const auto ends = run_device(f, kernels);
    CHECK(ends.at(1) == doctest::Approx(b_end).epsilon(1e-12));
    CHECK(ends.at(0) == doctest::Approx(a_end).epsilon(1e-12));
  }
}

TEST_CASE("three kernels: A of 3 s and B of 1 s from t = 0, C of 2 s from t = 1") {
  // f = 0 (r(2) = 1/2, r(3) = 1/3): by t = 1 A and B have done 0.5 each. With C, B's 0.5 left
  //   takes 1.5 s: B ends 2.5, when A has done 1.0 and C 0.5. Then C's 1.5 left takes 3 s at 1/2:
  //   C ends 5.5, A has done 2.5 and ends alone 0.5 s later, at 6.0.
  // f = 0.5 (r(2) = 2/3, r(3) = 1/2): by t = 1 A and B have done 2/3. B's 1/3 left takes 2/3 s:
  //   B ends 5/3, A has done 1, C 1/3. C's 5/3 left takes 2.5 s at 2/3: C ends 25/6, A has done
  //   8/3 and ends alone 1/3 s later, at 27/6 = 4.5.
  // f = 1: nobody is slowed: B ends 1, A and C both at 3 (together, in the order they started).
  const std::vector<Kernel> kernels{{0, 3.0, 0.0}, {1, 1.0, 0.0}, {2, 2.0, 1.0}};
  for (const auto& expected : {std::tuple{0.0, 6.0, 2.5, 5.5}, {0.5, 4.5, 5.0 / 3, 25.0 / 6}, {1.0, 3.0, 1.0, 3.0}}) {
    const double f = std::get<0>(expected), a_end = std::get<1>(expected), b_end = std::get<2>(expected),
                 c_end = std::get<3>(expected);
    CAPTURE(f);
    const auto ends = run_device(f, kernels);
    CHECK(ends.at(0) == doctest::Approx(a_end).epsilon(1e-12));
    CHECK(ends.at(1) == doctest::Approx(b_end).epsilon(1e-12));
    CHECK(ends.at(2) == doctest::Approx(c_end).epsilon(1e-12));
  }
}

TEST_CASE("kernels that reach their work together end together, in the order they started") {
  SharedDevice device(0.0);
  device.start(7, 1.0, 0.0);
  device.start(3, 1.0, 0.0);
  device.start(5, 1.0, 0.0);
  CHECK(device.next_end_s() == doctest::Approx(3.0));  // three at r(3) = 1/3
  CHECK(device.end_next(device.next_end_s()) == std::vector<int>{7, 3, 5});
  CHECK(device.running() == 0);
  CHECK(std::isinf(device.next_end_s()));

  SharedDevice full(1.0);
  full.start(0, 3.0, 0.0);
  full.start(1, 2.0, 1.0);  // its work is done at attained 1 + 2 = 3, as A's
  CHECK(full.end_next(full.next_end_s()) == std::vector<int>{0, 1});
}

TEST_CASE("a cleared device holds no kernel and starts afresh") {
  SharedDevice device(0.5);
  device.start(0, 10.0, 0.0);
  device.start(1, 10.0, 1.0);
  device.clear();
  CHECK(device.running() == 0);
  CHECK(std::isinf(device.next_end_s()));
  device.start(2, 1.0, 5.0);
  CHECK(device.next_end_s() == doctest::Approx(6.0));
}

namespace {

struct SharedKernel {
  int id;
  double work_s;
  double start_s;
  double occupancy;
};

// Runs the kernels (by start date) on a device shared as `sharing` says; returns each one's end date.
std::map<int, double> run_shared(DeviceSharing sharing, const std::vector<SharedKernel>& kernels) {
  SharedDevice device(sharing);
  std::map<int, double> ends;
  std::size_t next = 0;
  while (next < kernels.size() || device.running() > 0) {
    const double end = device.next_end_s();
    if (next < kernels.size() && kernels[next].start_s < end) {
      device.start(kernels[next].id, kernels[next].work_s, kernels[next].start_s, kernels[next].occupancy);
      ++next;
      continue;
    }
    for (int id : device.end_next(end)) ends[id] = end;
  }
  return ends;
}

std::map<int, double> run_by_occupancy(double interference, const std::vector<SharedKernel>& kernels) {
  return run_shared(DeviceSharing::by_occupancy(interference), kernels);
}

}  // namespace

TEST_CASE("by occupancy, the rate is 1 / (max(1, U) (1 + s (k - 1)))") {
  CHECK(SharedDevice::occupancy_rate(1, 0.3, 0) == 1.0);
  CHECK(SharedDevice::occupancy_rate(2, 1.0, 0) == 1.0);
  CHECK(SharedDevice::occupancy_rate(2, 2.0, 0) == 0.5);
  CHECK(SharedDevice::occupancy_rate(3, 1.5, 0.5) == doctest::Approx(1 / (1.5 * 2)));
}

TEST_CASE("by occupancy: u = 1 is time-sharing exactly, u -> 0 full overlap, two at u = 0.5 unslowed") {
  // u = 1: the same dates as f = 0 above (B ends 2.5, A 3.0).
  const auto time_shared = run_by_occupancy(0, {{0, 2.0, 0.0, 1.0}, {1, 1.0, 0.5, 1.0}});
  CHECK(time_shared.at(1) == 2.5);
  CHECK(time_shared.at(0) == 3.0);
  const auto overlap = run_device(0.0, {{0, 2.0, 0.0}, {1, 1.0, 0.5}});
  CHECK(time_shared == overlap);
  // u -> 0: nobody is slowed (B ends 1.5, A 2.0, as f = 1).
  const auto tiny = run_by_occupancy(0, {{0, 2.0, 0.0, 1e-9}, {1, 1.0, 0.5, 1e-9}});
  CHECK(tiny.at(1) == 1.5);
  CHECK(tiny.at(0) == 2.0);
  // Two of 0.5: together they fill the device exactly, and each takes its time alone.
  const auto halves = run_by_occupancy(0, {{0, 1.0, 0.0, 0.5}, {1, 1.0, 0.0, 0.5}, {2, 3.0, 0.0, 0.0}});
  CHECK(halves.at(0) == 1.0);
  CHECK(halves.at(1) == 1.0);
  CHECK(halves.at(2) == 3.0);
}

TEST_CASE("by occupancy: kernels slow down only for the share beyond the device, and by interference") {
  // A (2 s, u 0.8) from 0, B (1 s, u 0.4) from 0.5: U = 1.2, each at 1/1.2 while both run. B's
  // 1 s of work takes 1.2 s: B ends 1.7; A has done 0.5 + 1 = 1.5 and runs its 0.5 left alone
  // (U = 0.8, rate 1): A ends 2.2.
  const auto over = run_by_occupancy(0, {{0, 2.0, 0.0, 0.8}, {1, 1.0, 0.5, 0.4}});
  CHECK(over.at(1) == doctest::Approx(1.7).epsilon(1e-12));
  CHECK(over.at(0) == doctest::Approx(2.2).epsilon(1e-12));
  // Interference s = 0.5 on shares that fit (0.1 each): two at once each run at 1 / 1.5.
  const auto interfering = run_by_occupancy(0.5, {{0, 1.0, 0.0, 0.1}, {1, 1.0, 0.0, 0.1}});
  CHECK(interfering.at(0) == doctest::Approx(1.5).epsilon(1e-12));
  CHECK(interfering.at(1) == doctest::Approx(1.5).epsilon(1e-12));
}

TEST_CASE("a switching cost is device work added to a kernel that starts while another runs") {
  // Time-sharing (f = 0), c = 0.25 s: A (2 s) starts alone and pays nothing; B (1 s) starts at 0.5
  // while A runs, so its work is 1.25 s. Both at half speed from 0.5: B ends 0.5 + 2 x 1.25 = 3.0, when
  // A has done 0.5 + 1.25 = 1.75 and runs its 0.25 left alone: A ends 3.25 (without the cost: B 2.5,
  // A 3.0, above). C (1 s) starts at 4.0 on an idle device and pays nothing: 5.0.
  const auto ends =
      run_shared(DeviceSharing::by_overlap(0, 0.25), {{0, 2.0, 0.0, 1.0}, {1, 1.0, 0.5, 1.0}, {2, 1.0, 4.0, 1.0}});
  CHECK(ends.at(1) == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(ends.at(0) == doctest::Approx(3.25).epsilon(1e-12));
  CHECK(ends.at(2) == doctest::Approx(5.0).epsilon(1e-12));
  // By occupancy, two kernels of u = 0.1 started together run unslowed; the second to start pays the cost.
  const auto small = run_shared(DeviceSharing::by_occupancy(0, 0.25), {{0, 1.0, 0.0, 0.1}, {1, 1.0, 0.0, 0.1}});
  CHECK(small.at(0) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(small.at(1) == doctest::Approx(1.25).epsilon(1e-12));
  // No cost: the dates of the device without one.
  CHECK(run_shared(DeviceSharing::by_overlap(0, 0), {{0, 2.0, 0.0, 1.0}, {1, 1.0, 0.5, 1.0}}) ==
        run_device(0.0, {{0, 2.0, 0.0}, {1, 1.0, 0.5}}));
}
