// perf_analyzer --async's worker threads shared by its concurrency contexts (`client_threads`) and the
// client-side gap after a response (`client_gap`): closed forms of whole runs on test::perf_scenario
// (batch 1, one instance, no batching; CM02 with no TCP window, so a transfer of S bytes takes
// L + S/B). The round trip of one request is R = upload + tau(1) + download.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "analysis/outputs/perf_report.hpp"
#include "cli/processes/isolated_run.hpp"
#include "sim/perf_simulation.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

struct ThreadedLevel {
  PerfRow row;
  std::int64_t completed = 0;
};

ThreadedLevel run_threaded_level(const json& load) {
  const Scenario scenario = test::parse(test::perf_scenario(load));
  const json j = json::parse(run_isolated([&]() {
    const PerfMeasurement m = simulate_perf_level(scenario, 0);
    return json{{"row", perf_row(m)}, {"completed", m.latencies_ns.size()}}.dump();
  }));
  return {j.at("row").get<PerfRow>(), j.at("completed").get<std::int64_t>()};
}

json load_of(int concurrency) {
  return {
      {"model", "m"}, {"concurrency", {concurrency}}, {"warmup", "1s"}, {"windows", 3}, {"measurement_interval", "2s"}};
}

// Upload of 4000 B, tau(1) = 1 ms + 10 us, download of 400 B.
const double kPerfRoundTrip = (test::kOneWayLatency + 4000.0 / test::kBottleneck) + (1e-3 + 10e-6) +
                              (test::kOneWayLatency + 400.0 / test::kBottleneck);

// Little's law on a row's own columns: requests in flight = throughput x mean latency.
double in_flight(const PerfRow& row) { return row.inferences_per_s * row.avg_us * 1e-6; }

}  // namespace

TEST_CASE("client threads: one thread, 4 contexts, send s far above the round trip: X = 1/s, latency s + R") {
  // The thread sends back to back (4 s > s + R): request k (from 1) starts at (k - 1) s and ends at
  // k s + R. Waiting for the thread is outside the latency, so only (s + R) / s of 4 are in flight.
  const double s = 5e-3;
  json load = load_of(4);
  load["client_threads"] = 1;
  load["client_send"] = "5ms";
  const ThreadedLevel r = run_threaded_level(load);
  const auto completed =
      static_cast<std::int64_t>(std::ceil((7 - kPerfRoundTrip) / s) - std::ceil((1 - kPerfRoundTrip) / s));
  CHECK(r.completed == completed);
  CHECK(r.row.inferences_per_s == doctest::Approx(completed / 6.0));
  CHECK(r.row.inferences_per_s == doctest::Approx(1 / s).epsilon(0.002));
  CHECK(std::abs(r.row.p50_us - static_cast<std::int64_t>((s + kPerfRoundTrip) * 1e6)) <= 1);
  CHECK(r.row.p99_us == r.row.p50_us);
  CHECK(in_flight(r.row) == doctest::Approx((s + kPerfRoundTrip) / s).epsilon(0.002));
  CHECK(r.row.server_queue_us == 0);
}

TEST_CASE("client threads: one completion thread, recv r far above the round trip: X = 1/r, every context in flight") {
  // Responses wait for the one completion thread inside their latency and nothing is outside it, so
  // all 4 contexts are always in flight: mean latency = 4 / X = 4 r (Little's law).
  const double r_s = 5e-3;
  json load = load_of(4);
  load["client_threads"] = 1;
  load["client_recv"] = "5ms";
  const ThreadedLevel r = run_threaded_level(load);
  CHECK(r.row.inferences_per_s == doctest::Approx(1 / r_s).epsilon(0.002));
  CHECK(r.row.avg_us * 1e-6 == doctest::Approx(4 * r_s).epsilon(0.002));
  CHECK(in_flight(r.row) == doctest::Approx(4).epsilon(0.004));
  CHECK(r.row.client_recv_us == 5000);
}

TEST_CASE("client threads: at least as many threads as contexts gives the row of a thread per context") {
  json load = load_of(8);
  load["client_send"] = "20us";
  load["client_recv"] = "10us";
  const ThreadedLevel own = run_threaded_level(load);
  for (int threads : {8, 64}) {
    load["client_threads"] = threads;
    const ThreadedLevel shared = run_threaded_level(load);
    CHECK(json(shared.row).dump() == json(own.row).dump());
    CHECK(shared.completed == own.completed);
  }
  // Fewer threads than contexts: each thread's sends queue, so fewer are in flight than 8.
  load["client_send"] = "4ms";
  load["client_threads"] = 8;
  const double all_in_flight = in_flight(run_threaded_level(load).row);
  load["client_threads"] = 2;
  CHECK(in_flight(run_threaded_level(load).row) < 0.9 * all_in_flight);
}

TEST_CASE("client gap: one context, gap g after each response: X = 1/(R + g), latency R, in flight R/(R + g)") {
  const double g = 2e-3;
  json load = load_of(1);
  load["client_gap"] = "2ms";
  const ThreadedLevel r = run_threaded_level(load);
  // Request k (from 1) ends at k R + (k - 1) g; those ending in [1 s, 7 s) are counted.
  const double cycle = kPerfRoundTrip + g;
  const auto completed = static_cast<std::int64_t>(std::ceil((7 + g) / cycle) - std::ceil((1 + g) / cycle));
  CHECK(r.completed == completed);
  CHECK(r.row.inferences_per_s == doctest::Approx(1 / cycle).epsilon(0.002));
  CHECK(std::abs(r.row.p50_us - static_cast<std::int64_t>(kPerfRoundTrip * 1e6)) <= 1);
  CHECK(in_flight(r.row) == doctest::Approx(kPerfRoundTrip / cycle).epsilon(0.002));
}
