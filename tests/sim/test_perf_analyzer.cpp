// The perf_analyzer-like load mode: closed forms of whole runs (same network conventions as
// test_simulation.cpp: CM02, no TCP window, so a transfer of S bytes over latency L and bottleneck B
// takes L + S/B).
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>

#include "analysis/outputs/perf_report.hpp"
#include "cli/processes/isolated_run.hpp"
#include "models/io/input_error.hpp"
#include "models/io/limits.hpp"
#include "models/scenario/scenario_size.hpp"
#include "sim/perf_simulation.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

using test::kBottleneck;
using test::kOneWayLatency;

struct LevelResult {
  PerfRow row;
  std::int64_t completed = 0;
};

LevelResult run_level(const json& document, std::size_t level = 0) {
  const Scenario scenario = test::parse(document);
  const json j = json::parse(run_isolated([&]() {
    const PerfMeasurement m = simulate_perf_level(scenario, level);
    return json{{"row", perf_row(m)}, {"completed", m.latencies_ns.size()}}.dump();
  }));
  return {j.at("row").get<PerfRow>(), j.at("completed").get<std::int64_t>()};
}

}  // namespace

TEST_CASE("perf, one client: latency = send + upload + tau(b) + download + recv; throughput = b / latency") {
  const int b = 10;
  const json load = {
      {"model", "m"}, {"batch_size", b},       {"concurrency", {1}},   {"warmup", "1s"}, {"measurement_interval", "2s"},
      {"windows", 3}, {"client_send", "20us"}, {"client_recv", "10us"}};
  const LevelResult r = run_level(test::perf_scenario(load));
  const double tau = 1e-3 + 10e-6 * b;
  const double up = kOneWayLatency + b * 4000.0 / kBottleneck;
  const double down = kOneWayLatency + b * 400.0 / kBottleneck;
  const double latency = 20e-6 + up + tau + down + 10e-6;
  // Request k (from 1) ends at k * latency; those ending in [1 s, 7 s) are counted.
  const auto completed = static_cast<std::int64_t>(std::ceil(7 / latency) - std::ceil(1 / latency));
  CHECK(r.completed == completed);
  CHECK(r.row.inferences_per_s == doctest::Approx(completed * b / 6.0));
  CHECK(std::abs(r.row.p50_us - static_cast<std::int64_t>(latency * 1e6)) <= 1);
  CHECK(r.row.p99_us == r.row.p50_us);
  CHECK(r.row.server_queue_us == 0);
  CHECK(std::abs(r.row.server_compute_infer_us - static_cast<std::int64_t>(tau * 1e6)) <= 1);
  CHECK(r.row.client_send_us == 20);
  CHECK(r.row.client_recv_us == 10);
  CHECK(std::abs(r.row.network_server_us - static_cast<std::int64_t>((up + down) * 1e6)) <= 2);
}

TEST_CASE("perf, concurrency 8 on a saturated instance: throughput 1/tau and, by Little's law, latency 8 tau") {
  json d = test::perf_scenario(
      {{"model", "m"}, {"concurrency", {8}}, {"warmup", "2s"}, {"measurement_interval", "5s"}, {"windows", 3}});
  d["models"]["m"]["kernel_latency"]["intercept"] = "20ms";  // far longer than the 2.3 ms round trip
  const LevelResult r = run_level(d);
  const double tau = 20e-3 + 10e-6;
  CHECK(r.row.inferences_per_s == doctest::Approx(1 / tau).epsilon(0.005));
  CHECK(r.row.avg_us * 1e-6 == doctest::Approx(8 * tau).epsilon(0.005));
  CHECK(r.row.server_compute_infer_us == doctest::Approx(tau * 1e6).epsilon(0.001));
}

TEST_CASE("perf, Poisson request rate on max_batch_size 1: Server Queue is M/D/1's mean wait (P-K)") {
  const double tau = 1e-3 + 10e-6;  // batch 1
  const double rho = 0.6;
  json d = test::perf_scenario({{"model", "m"},
                                {"request_rate", {rho / tau}},
                                {"request_distribution", "poisson"},
                                {"warmup", "5s"},
                                {"measurement_interval", "100s"},
                                {"windows", 2}});
  d["models"]["m"]["max_batch_size"] = 1;
  const LevelResult r = run_level(d);
  const double expected_wait = rho * tau / (2 * (1 - rho));  // Pollaczek-Khinchine, deterministic service
  CHECK(r.row.server_queue_us * 1e-6 == doctest::Approx(expected_wait).epsilon(0.03));
  CHECK(r.row.inferences_per_s == doctest::Approx(rho / tau).epsilon(0.01));
}

namespace {

// Inferences/s at concurrency `clients`, batch `batch_size`, with or without Triton's dynamic
// batcher (no delay, preferred sizes defaulting to max_batch_size).
double inferences_per_s(int clients, int batch_size, int max_batch_size, bool dynamic_batching) {
  json d = test::perf_scenario({{"model", "m"},
                                {"batch_size", batch_size},
                                {"concurrency", {clients}},
                                {"warmup", "1s"},
                                {"measurement_interval", "4s"},
                                {"windows", 1}});
  d["platform"]["site_uplink"]["bandwidth"] = "100Gbps";  // the GPU, not the uplink, is the bottleneck
  d["platform"]["wan"]["bandwidth"] = "100Gbps";
  d["models"]["m"]["max_batch_size"] = max_batch_size;
  d["models"]["m"]["kernel_latency"] = {{"type", "affine"}, {"intercept", "2ms"}, {"per_item", "47.9us"}};
  if (dynamic_batching) d["models"]["m"]["dynamic_batching"] = json::object();
  return run_level(d).row.inferences_per_s;
}

}  // namespace

TEST_CASE("dynamic batching multiplies throughput for small requests and changes nothing for batch 1693") {
  // 32 clients of batch 1 saturate one instance that runs them one by one (2.05 ms each); batched,
  // one 2 ms launch serves many requests. ProtoDUNE's requests of 1693 patches against
  // max_batch_size 2048 cannot share a batch, so the batcher has nothing to merge.
  const double small_plain = inferences_per_s(32, 1, 2048, false);
  const double small_batched = inferences_per_s(32, 1, 2048, true);
  CHECK(small_plain == doctest::Approx(1 / (2e-3 + 47.9e-6)).epsilon(0.01));
  CHECK(small_batched > 4 * small_plain);
  MESSAGE("batch 1: " << small_plain << " -> " << small_batched << " inferences/s");

  const double large_plain = inferences_per_s(4, 1693, 2048, false);
  const double large_batched = inferences_per_s(4, 1693, 2048, true);
  CHECK(large_batched == large_plain);
  CHECK(large_plain == doctest::Approx(1693 / (2e-3 + 47.9e-6 * 1693)).epsilon(0.01));
}

TEST_CASE("perf, a request-rate level of 400,000 requests at utilisation 0.5 runs: Server Queue is M/D/1's mean wait" *
          doctest::test_suite("large")) {
  // Only a handful of requests are in flight at once at a rate the server keeps up with, so the
  // level's total is no bound on what the run holds.
  const double tau = 1e-3 + 10e-6;  // batch 1
  const double rho = 0.5;
  const double rate = rho / tau;
  const double window_s = 200;
  json d = test::perf_scenario({{"model", "m"},
                                {"request_rate", {rate}},
                                {"request_distribution", "poisson"},
                                {"warmup", "10s"},
                                {"measurement_interval", std::to_string(window_s) + "s"},
                                {"windows", 4}});
  d["models"]["m"]["max_batch_size"] = 1;
  REQUIRE(rate * (10 + 4 * window_s) > 400'000);
  const LevelResult r = run_level(d);
  const double expected_wait = rho * tau / (2 * (1 - rho));  // Pollaczek-Khinchine, deterministic service
  CHECK(r.row.server_queue_us * 1e-6 == doctest::Approx(expected_wait).epsilon(0.03));
  CHECK(r.row.inferences_per_s == doctest::Approx(rate).epsilon(0.01));
  CHECK(r.completed == doctest::Approx(rate * 4 * window_s).epsilon(0.01));
}

TEST_CASE("perf, a request rate the server cannot keep up with stops at the cap on requests in flight, with an error") {
  // 20,000 requests/s against one instance that serves 1 / 1.01 ms ~ 990/s: the backlog grows by
  // ~19,000/s, so the cap of limits::kMaxPerfRequestsInFlight is reached after ~1.3 s.
  json d =
      test::perf_scenario({{"model", "m"}, {"request_rate", {20000}}, {"measurement_interval", "10s"}, {"windows", 1}});
  d["models"]["m"]["max_batch_size"] = 1;
  const Scenario scenario = test::parse(d);
  CHECK(perf_requests_in_flight_cap(scenario) == limits::kMaxPerfRequestsInFlight);
  const std::string error = run_isolated([&]() -> std::string {
    try {
      simulate_perf_level(scenario, 0);
      return "no error";
    } catch (const InputError& e) {
      return e.what();
    }
  });
  CHECK(error.find("/perf_analyzer/request_rate/0: at 20000") != std::string::npos);
  CHECK(error.find("the server does not keep up: 25000 requests were in flight") != std::string::npos);
  MESSAGE(error);
}

// ---- Variability (issue 30, item 2): kernel spread, device sharing, client times as distributions ----

TEST_CASE("perf, Poisson request rate with a lognormal kernel spread: Server Queue is M/G/1's mean wait (P-K)") {
  // Pollaczek-Khinchine: W = rho E[S] (1 + cv^2) / (2 (1 - rho)). The draws keep tau(1) as their mean,
  // so with cv = 1 the wait is twice the deterministic kernel's (the test above) at the same load.
  const double tau = 1e-3 + 10e-6;
  const double rho = 0.5, cv = 1.0;
  json d = test::perf_scenario({{"model", "m"},
                                {"request_rate", {rho / tau}},
                                {"request_distribution", "poisson"},
                                {"warmup", "5s"},
                                {"measurement_interval", "200s"},
                                {"windows", 1}});
  d["models"]["m"]["max_batch_size"] = 1;
  d["models"]["m"]["kernel_latency"]["spread"] = {{"distribution", "lognormal"}, {"cv", cv}};
  const LevelResult r = run_level(d);
  const double expected_wait = rho * tau * (1 + cv * cv) / (2 * (1 - rho));
  // ~99,000 requests; the mean wait of M/G/1 with cv = 1 has a relative standard error of ~2% here.
  CHECK(r.row.server_queue_us * 1e-6 == doctest::Approx(expected_wait).epsilon(0.08));
  CHECK(r.row.server_compute_infer_us * 1e-6 == doctest::Approx(tau).epsilon(0.02));
  CHECK(r.row.p99_us > 3 * r.row.p50_us / 2);  // the latency is no longer a point mass
}

TEST_CASE("perf, two instances sharing one GPU: saturated throughput 2 / (tau (1 + (1 - f))) for overlap f") {
  // Each of k kernels on one device runs at 1 / (1 + (k - 1)(1 - f)) of its speed
  // (models/workload/shared_device.hpp): two busy instances complete 2 kernels every
  // tau (2 - f). f = 0 is time-sharing, as SimGrid computes it without the key.
  const double tau = 20e-3 + 10e-6;  // far longer than the 2.3 ms round trip: both instances stay busy
  auto throughput = [&](std::optional<double> overlap) {
    json d = test::perf_scenario(
        {{"model", "m"}, {"concurrency", {8}}, {"warmup", "2s"}, {"measurement_interval", "10s"}, {"windows", 1}});
    d["models"]["m"]["kernel_latency"]["intercept"] = "20ms";
    d["models"]["m"]["max_batch_size"] = 1;
    d["models"]["m"]["instances_per_gpu"] = 2;
    if (overlap) d["platform"]["servers"][0]["kernel_overlap"] = *overlap;
    return run_level(d).row.inferences_per_s;
  };
  CHECK(throughput(std::nullopt) == doctest::Approx(1 / tau).epsilon(0.01));
  for (const double f : {0.0, 0.5, 1.0}) {
    CAPTURE(f);
    CHECK(throughput(f) == doctest::Approx(2 / (tau * (2 - f))).epsilon(0.01));
  }
}

TEST_CASE("perf, two instances sharing one GPU by occupancy: time-sharing at u = 1, unslowed at u = 1/2 and below") {
  // Batch-1 requests, one per execution, both instances always busy (tau far above the 2.3 ms round
  // trip). By occupancy (models/workload/shared_device.hpp) each runs at 1 / (max(1, 2u)(1 + s)):
  // the two complete 2 / (tau max(1, 2u)(1 + s)) requests per second.
  const double tau = 20e-3;
  // tau(B) = intercept + per_item B.
  auto throughput = [&](const char* intercept, const char* per_item, int max_batch, bool by_occupancy,
                        double interference = 0) {
    json d = test::perf_scenario(
        {{"model", "m"}, {"concurrency", {8}}, {"warmup", "2s"}, {"measurement_interval", "10s"}, {"windows", 1}});
    d["models"]["m"]["kernel_latency"] = {{"type", "affine"}, {"intercept", intercept}, {"per_item", per_item}};
    d["models"]["m"]["max_batch_size"] = max_batch;
    d["models"]["m"]["instances_per_gpu"] = 2;
    if (by_occupancy) d["platform"]["servers"][0]["kernel_sharing"] = "occupancy";
    if (interference > 0) d["platform"]["servers"][0]["kernel_interference"] = interference;
    return run_level(d).row.inferences_per_s;
  };
  // tau = 20 ms x B through the origin: every batch fills the device (u = 1), which is time-sharing.
  const double time_shared = throughput("0s", "20ms", 1, false);
  CHECK(time_shared == doctest::Approx(1 / tau).epsilon(0.01));
  CHECK(throughput("0s", "20ms", 1, true) == doctest::Approx(time_shared).epsilon(1e-6));
  // A constant 20 ms up to max_batch_size 2: u(1) = 1/2, the two fill the device exactly and each
  // runs as if alone; up to 10^6, u(1) = 10^-6, full overlap. Time-sharing halves both.
  CHECK(throughput("20ms", "0s", 2, false) == doctest::Approx(1 / tau).epsilon(0.01));
  CHECK(throughput("20ms", "0s", 2, true) == doctest::Approx(2 / tau).epsilon(0.01));
  CHECK(throughput("20ms", "0s", 1'000'000, true) == doctest::Approx(2 / tau).epsilon(0.01));
  // An interference cost of 0.5 per concurrent execution: 2 / (1.5 tau).
  CHECK(throughput("20ms", "0s", 2, true, 0.5) == doctest::Approx(2 / (1.5 * tau)).epsilon(0.01));
}

TEST_CASE("perf, a switching cost per execution: two busy time-sharing instances complete 1 / (tau + c) per second") {
  // Batch-1 requests, both instances always busy (8 in flight, tau far above the round trip): every
  // execution but the first starts while the other runs, so it is tau + c of device work, and two such
  // at half speed each take 2 (tau + c): the pair completes 2 / (2 (tau + c)) requests per second
  // (models/workload/shared_device.hpp). The same with an overlap fraction f: each runs at
  // 1 / (2 - f), so 2 / ((2 - f)(tau + c)); by occupancy with u = 1, as time-sharing.
  const double tau = 20e-3, c = 5e-3;
  auto throughput = [&](const char* switch_cost, const json& sharing) {
    json d = test::perf_scenario(
        {{"model", "m"}, {"concurrency", {8}}, {"warmup", "2s"}, {"measurement_interval", "10s"}, {"windows", 1}});
    d["models"]["m"]["kernel_latency"] = {{"type", "affine"}, {"intercept", "0s"}, {"per_item", "20ms"}};
    d["models"]["m"]["max_batch_size"] = 1;
    d["models"]["m"]["instances_per_gpu"] = 2;
    if (switch_cost) d["platform"]["servers"][0]["kernel_switch_cost"] = switch_cost;
    for (const auto& [key, value] : sharing.items()) d["platform"]["servers"][0][key] = value;
    return run_level(d).row.inferences_per_s;
  };
  CHECK(throughput("5ms", json::object()) == doctest::Approx(1 / (tau + c)).epsilon(0.01));
  CHECK(throughput("5ms", {{"kernel_overlap", 0.5}}) == doctest::Approx(2 / (1.5 * (tau + c))).epsilon(0.01));
  CHECK(throughput("5ms", {{"kernel_sharing", "occupancy"}}) == doctest::Approx(1 / (tau + c)).epsilon(0.01));
  // A zero cost is SimGrid's time-sharing, the run without the key.
  CHECK(throughput("0s", json::object()) == throughput(nullptr, json::object()));
}

TEST_CASE("perf, client_send and client_recv as distributions: their columns are the distributions' means") {
  json d = test::perf_scenario(
      {{"model", "m"}, {"concurrency", {1}}, {"warmup", "1s"}, {"measurement_interval", "20s"}, {"windows", 1}});
  d["perf_analyzer"]["client_send"] = {{"distribution", "exponential"}, {"mean", "2ms"}};
  d["perf_analyzer"]["client_recv"] = {{"distribution", "normal"}, {"mean", "1ms"}, {"stddev", "0.1ms"}};
  const LevelResult r = run_level(d);
  // ~5,000 requests: the exponential's sample mean has a relative standard error of ~1.4%.
  CHECK(r.row.client_send_us * 1e-6 == doctest::Approx(2e-3).epsilon(0.05));
  CHECK(r.row.client_recv_us * 1e-6 == doctest::Approx(1e-3).epsilon(0.02));
  CHECK(r.row.p99_us > r.row.p50_us + 4000);  // an exponential's p99 is ~4.6 means above 0, its median 0.7
}
