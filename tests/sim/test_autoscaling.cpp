// KEDA and the HPA scaling a Triton deployment, against timelines worked out by hand.
//
// The farm: 8 jobs, one per core, whose events are one request each and nothing else (no CPU, no
// preprocessing), so that every job always has one request in flight. A pool of 4 servers with one
// GPU, one instance and Triton's default scheduler: one request at a time, 10 ms each. Requests go
// through a proxy (round robin, DNS refresh 5 s). The network is negligible (1 ns, 100 Gbps,
// 100-byte messages). The autoscaler reads in_flight_per_replica, Envoy's active requests per ready
// replica, which here is 8 / ready at every scrape.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "analysis/summary/summary.hpp"
#include "tests/support/negligible_network_farm.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

json autoscaled_farm(const std::string& duration) {
  json d = test::negligible_network_farm(8, "round_robin");
  d["platform"]["proxy"] = {{"nic", test::negligible_link()}};
  d["platform"]["servers"].push_back(test::one_gpu_servers("pod", 4, "T4"));
  d["platform"]["servers"][0]["autoscaling"] = {
      {"min_replicas", 1},      {"max_replicas", 4}, {"metric", "in_flight_per_replica"},
      {"metric_type", "Value"}, {"threshold", 2},    {"startup", "22s"}};
  d["models"]["m"] = test::one_instance_model();
  d["models"]["m"]["kernel_latency"] = test::constant_kernel("10ms");
  json ml = test::one_request_module();
  ml["cpu_fallback"] = "5ms";
  d["workload"] = {
      {"jobs", 8}, {"duration", duration}, {"start", {{"pattern", "all_at_once"}}}, {"modules", json::array({ml})}};
  d["simulation"]["outputs"] = {"requests", "events", "timeseries"};
  return d;
}

json& autoscaling(json& d) { return d["platform"]["servers"][0]["autoscaling"]; }

const TimeseriesRow& row_at(const SimulationResults& r, double t_s) {
  const auto it = std::find_if(r.scrapes.value().timeseries.begin(), r.scrapes.value().timeseries.end(),
                               [t_s](const TimeseriesRow& row) { return std::abs(row.t_s - t_s) < 1e-9; });
  REQUIRE(it != r.scrapes.value().timeseries.end());
  return *it;
}

double first_arrival(const SimulationResults& r, int server) {
  double first = 1e300;
  for (const RequestRecord& q : r.requests)
    if (q.server == server && q.arrived_s > 0) first = std::min(first, q.arrived_s);
  return first;
}

double mean_event_time(const SimulationResults& r, double from_s, double to_s = 1e300) {
  double sum = 0;
  int n = 0;
  for (const EventRecord& e : r.events)
    if (e.start_s >= from_s && e.start_s < to_s) {
      sum += e.time_s();
      ++n;
    }
  REQUIRE(n > 0);
  return sum / n;
}

// A duration-limited run ends with each job's request in flight.
void check_conservation_at_cut_off(const SimulationResults& r) {
  CHECK(r.requests_in_flight_at_end == 8);
  CHECK(r.requests_sent ==
        r.requests_completed + r.requests_failed() + r.requests_rejected + r.requests_in_flight_at_end);
}

}  // namespace

TEST_CASE("a step in load: the HPA asks for replicas, which take traffic after start-up, probe and DNS") {
  // One replica holds all 8 requests: the metric reads 8 from the first scrape. The HPA's first sync
  // at 15 s asks ceil(1 x 8 / 2) = 4 replicas; the default scale-up policies allow max(100 % of 1,
  // 4 pods) more, and the window is 0, so 4 at once. The 3 new pods get the 3 free servers at 15 s,
  // serve after 22 s (37 s), are ready at the next readiness probe (15 + 10 + k x 10: 45 s), and the
  // proxy's DNS refresh at 50 s sends them requests. From then on 8 / 4 = 2 = the target: no change.
  const SimulationResults r = test::simulate_isolated(test::parse(autoscaled_farm("120s")));
  CHECK(row_at(r, 10).ready == 1);
  CHECK(row_at(r, 10).desired == 1);
  CHECK(*row_at(r, 10).metric == doctest::Approx(8));
  CHECK(row_at(r, 20).desired == 4);
  CHECK(row_at(r, 20).starting == 3);
  CHECK(row_at(r, 40).starting == 3);
  CHECK(row_at(r, 40).ready == 1);
  CHECK(row_at(r, 50).ready == 4);
  CHECK(row_at(r, 60).desired == 4);
  CHECK(*row_at(r, 60).metric == doctest::Approx(2));
  // The proxy resolves at its first pick after 50 s; round robin then reaches each new server
  // within a few of the 10 ms request cycles.
  for (int server = 1; server < 4; ++server) {
    CHECK(first_arrival(r, server) >= 50);
    CHECK(first_arrival(r, server) < 50.05);
  }
  REQUIRE(r.autoscaling);
  CHECK(r.autoscaling->pods_created == 4);
  CHECK(r.autoscaling->pods_ready == 4);
  CHECK(r.autoscaling->max_ready == 4);
  // GPUs held: 1 over [0, 120] s and 3 more from 15 s: 120 + 3 x 105 GPU-seconds.
  CHECK(r.autoscaling->gpu_seconds == doctest::Approx(120 + 3 * 105));
  CHECK(r.autoscaling->ready_replica_seconds == doctest::Approx(120 + 3 * 75));
  // GPU-seconds in service (ready, none draining): the same 120 + 3 x 75. The first pod is busy all
  // along (8 requests queue on it); each new one from its first request on (two always queue on each
  // of four). The pool's mean counts the 4 GPUs over the whole run instead.
  CHECK(r.autoscaling->serving_gpu_seconds == doctest::Approx(120 + 3 * 75));
  double busy_s = 120;
  for (int server = 1; server < 4; ++server) busy_s += 120 - first_arrival(r, server);
  const Summary summary = summarize(r);
  CHECK(summary.autoscaling->gpu_utilization_in_service == doctest::Approx(busy_s / (120 + 3 * 75)).epsilon(0.002));
  CHECK(summary.gpu_utilization == doctest::Approx(busy_s / (4 * 120)).epsilon(0.002));
  check_conservation_at_cut_off(r);
  CHECK(r.requests_failed() == 0);

  // Before: 8 requests share one 10 ms instance, 80 ms per event. Once the 4 replicas take traffic
  // the per-event time returns within 5 % of a fixed farm of 4 servers.
  CHECK(mean_event_time(r, 20, 45) == doctest::Approx(0.080).epsilon(0.01));
  json fixed = autoscaled_farm("120s");
  fixed["platform"]["servers"][0].erase("autoscaling");
  const SimulationResults unloaded = test::simulate_isolated(test::parse(fixed));
  const double settled = mean_event_time(r, 60);
  CHECK(std::abs(settled - mean_event_time(unloaded, 60)) <= 0.05 * mean_event_time(unloaded, 60));
}

TEST_CASE("the GPU pool bounds the replicas: the others stay pending") {
  json d = autoscaled_farm("60s");
  d["platform"]["servers"][0]["count"] = 2;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  CHECK(row_at(r, 20).desired == 4);
  CHECK(row_at(r, 20).starting == 1);
  CHECK(row_at(r, 20).pending == 2);
  CHECK(row_at(r, 50).ready == 2);
  CHECK(row_at(r, 50).pending == 2);
}

TEST_CASE("scale-down: the pod leaves the proxy, drains within the grace period, and nothing is lost") {
  // Two replicas at t = 0 and a threshold so high that the first sync (15 s) asks for one: the
  // newest pod (on server 1) is deleted. With a 10 s preStop sleep it serves on until 25 s; the
  // proxy stops sending to it at its DNS refresh at 20 s; at SIGTERM it holds nothing and exits.
  json d = autoscaled_farm("60s");
  autoscaling(d).update({{"initial_replicas", 2},
                         {"threshold", 100},
                         {"prestop_sleep", "10s"},
                         {"scale_down", {{"stabilization_window", "0s"}}}});
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  CHECK(row_at(r, 10).ready == 2);
  CHECK(row_at(r, 20).ready == 1);
  CHECK(row_at(r, 20).draining == 1);
  CHECK(row_at(r, 30).draining == 0);
  check_conservation_at_cut_off(r);
  CHECK(r.requests_failed() == 0);
  CHECK(r.autoscaling->requests_killed == 0);
  CHECK(r.autoscaling->requests_refused_draining == 0);
  double last_on_1 = 0;
  for (const RequestRecord& q : r.requests)
    if (q.server == 1) last_on_1 = std::max(last_on_1, q.arrived_s);
  CHECK(last_on_1 < 20);
  CHECK(last_on_1 > 19.9);
  // Server 1's GPU was held over [0, 25] s: up to SIGTERM, then it exited at once.
  CHECK(r.autoscaling->gpu_seconds == doctest::Approx(60 + 25));
}

TEST_CASE("SIGTERM at once: the pod finishes what it holds, refuses what still comes, and exits") {
  // As above without a preStop sleep: at 15 s server 1 holds its 4 requests (one on the GPU, three
  // queued, 10 ms each) and finishes them by ~15.04 s, well within the 60 s grace period. The proxy
  // keeps sending to it until its DNS refresh at 20 s: what arrives while it drains is refused
  // (UNAVAILABLE), what arrives after it exited waits the 5 s connect timeout. The jobs fall back.
  json d = autoscaled_farm("40s");
  autoscaling(d).update(
      {{"initial_replicas", 2}, {"threshold", 100}, {"scale_down", {{"stabilization_window", "0s"}}}});
  d["workload"]["modules"][0]["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation_at_cut_off(r);
  REQUIRE(r.autoscaling);
  CHECK(r.autoscaling->requests_killed == 0);
  CHECK(r.autoscaling->requests_refused_draining >= 1);
  std::int64_t completed_after_sigterm = 0;
  for (const RequestRecord& q : r.requests) {
    if (q.server != 1 || q.status != RequestStatus::Completed || q.responded_s < 15) continue;
    ++completed_after_sigterm;
    CHECK(q.arrived_s < 15);
    CHECK(q.responded_s < 15.05);
  }
  CHECK(completed_after_sigterm == 4);
  CHECK(r.requests_failed() == r.failures.value().unavailable);
}

TEST_CASE("scale-down past the grace period: what the pod still holds fails, and is counted") {
  // As above with 1 s kernels, SIGTERM at once (no preStop sleep) and a 0.5 s grace period. Each
  // server holds two of the 8 requests... round robin alternates, so at 15 s server 1 runs one
  // request (started at 14 s) and queues the others sent to it. The kernel running at 15 s ends at
  // 15 s exactly or later; at 15.5 s the pod is killed with what it still holds. Requests reaching it
  // in [15, 15.5) s are refused; after 15.5 s, until the DNS refresh at 20 s, each waits the 5 s
  // connect timeout. Every request is accounted for: sent = completed + failed + in flight at the end.
  json d = autoscaled_farm("40s");
  autoscaling(d).update({{"initial_replicas", 2},
                         {"threshold", 100},
                         {"grace_period", "0.5s"},
                         {"scale_down", {{"stabilization_window", "0s"}}}});
  d["models"]["m"]["kernel_latency"]["intercept"] = "0.7s";
  d["workload"]["modules"][0]["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation_at_cut_off(r);
  REQUIRE(r.autoscaling);
  // Server 1 held its 4 requests at 15 s: one running since 14.7 s (done at 15.4 s) and 3 queued;
  // the next one starts at 15.4 s and is killed at 15.5 s with the 2 still queued.
  CHECK(r.autoscaling->requests_killed == 3);
  std::int64_t failed_on_1 = 0, completed_on_1_after_kill = 0;
  for (const RequestRecord& q : r.requests) {
    if (q.server != 1) continue;
    if (q.status == RequestStatus::Failed) ++failed_on_1;
    if (q.status == RequestStatus::Completed && q.responded_s > 15.5) ++completed_on_1_after_kill;
  }
  CHECK(completed_on_1_after_kill == 0);
  CHECK(failed_on_1 == r.requests_failed());
  CHECK(r.requests_failed() == r.failures.value().unavailable);
  CHECK(r.requests_failed() >= r.autoscaling->requests_killed + r.autoscaling->requests_refused_draining);
}

TEST_CASE("KEDA takes the deployment to zero after its cooldown; a metric read from the pods cannot wake it") {
  // min_replicas 0 and a first wave of 8 jobs of 10 events, done within a second. A metric read from
  // the pods themselves never wakes an empty deployment (no pod, no sample: the chart's values warn
  // of it, docs/reference/supersonic.md §1.6), so the second wave finds none.
  json d = autoscaled_farm("200s");
  d["workload"]["events_per_job"] = 10;
  d["workload"].erase("duration");
  autoscaling(d).update(
      {{"min_replicas", 0}, {"initial_replicas", 1}, {"cooldown", "60s"}, {"polling_interval", "30s"}});
  // Jobs keep running (and the simulation going) with a second wave long after.
  d["workload"]["jobs"] = 16;
  d["platform"]["worker_pools"][0]["nodes"] = 16;
  d["workload"]["start"] = {{"pattern", "waves"}, {"jobs_per_wave", 8}, {"period", "150s"}};
  d["workload"]["modules"][0]["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  // The first wave is done within a second. KEDA polls at 30, 60, 90 s: the metric is 0 from the
  // first scrape without requests; the last active poll was at t = 0 (KEDA starts active), so at
  // 60 s (60 s after it) it scales to zero; the pod drains (it holds nothing) and exits. The HPA's
  // syncs before keep 1: its own minimum is 1.
  CHECK(row_at(r, 55).ready == 1);
  CHECK(row_at(r, 55).desired == 1);
  CHECK(row_at(r, 65).desired == 0);
  CHECK(row_at(r, 65).ready == 0);
  CHECK(row_at(r, 65).draining == 0);
  CHECK(r.autoscaling->gpu_seconds == doctest::Approx(60));
  // The second wave at 150 s finds no ready server: every request fails at the proxy (no healthy
  // upstream) and the jobs run on their CPU fallback.
  CHECK(r.events.size() == 160);
  CHECK(r.requests_failed() == 80);
}
