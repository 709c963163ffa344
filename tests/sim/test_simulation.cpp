// Closed-form checks of whole simulations. Each expected value is computed here from the
// scenario's parameters, independently of the simulator: with SimGrid's CM02 model, factors 1 and
// no TCP window, a transfer of S bytes over a route with summed latency L and bottleneck bandwidth
// B takes exactly L + S/B, and n flows sharing a bottleneck get B/n each (max-min fairness).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "models/scenario/reader/scenario_reader.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

using test::kBottleneck;
using test::kOneWayLatency;  // the base scenario's route: worker NIC, site uplink, WAN, server NIC
using test::kTimeEpsilon;
using test::tau;

json fast_platform(json d, int nodes) {
  d["platform"]["worker_pools"][0]["nodes"] = nodes;
  d["workload"]["jobs"] = nodes;
  d["platform"]["placement"] = "spread";
  return d;
}

// `nodes` jobs, one per node, that each send a single 100-item request at time 0.
json one_request_per_job(int nodes) {
  json d = fast_platform(test::base_scenario(), nodes);
  d["workload"]["modules"][0]["time"] = "0s";
  d["workload"]["modules"][1]["preprocess"] = "0s";
  d["workload"]["modules"][1]["items_per_event"] = 100;
  d["workload"]["modules"][1]["items_per_request"] = 100;
  return d;
}

}  // namespace

TEST_CASE("one job, no contention: per-event time = CPU + preprocessing + sum of (RTT + bytes/B + tau(b))") {
  const auto r = test::simulate_isolated(test::parse(test::base_scenario()));
  REQUIRE(r.events.size() == 1);
  double expected_inference = 0;
  for (int items : {300, 300, 300, 100}) {
    expected_inference += 2 * kOneWayLatency + items * (4000.0 + 400.0) / kBottleneck + tau(items);
  }
  const EventRecord& e = r.events[0];
  CHECK(e.time_s() == doctest::Approx(2.0 + 0.5 + expected_inference).epsilon(kTimeEpsilon));
  CHECK(e.cpu_s == doctest::Approx(2.0).epsilon(kTimeEpsilon));
  CHECK(e.preprocess_s == doctest::Approx(0.5).epsilon(kTimeEpsilon));
  CHECK(e.gpu_s == doctest::Approx(tau(300) * 3 + tau(100)).epsilon(kTimeEpsilon));
  CHECK(e.queue_s == doctest::Approx(0.0));
  // Blocking requests do not overlap, so the parts add up to the inference wall time.
  CHECK(e.network_s + e.queue_s + e.gpu_s == doctest::Approx(e.inference_s).epsilon(kTimeEpsilon));
  CHECK(e.requests == 4);
}

TEST_CASE("without a WAN, servers are reached through the site uplink only") {
  json d = test::base_scenario();
  d["platform"].erase("wan");
  d["simulation"]["outputs"] = {"requests"};
  const auto r = test::simulate_isolated(test::parse(d));
  const double latency = 10e-6 + 100e-6 + 10e-6;  // worker NIC + site uplink + server NIC
  const RequestRecord& q = r.requests.at(0);
  CHECK(q.arrived_s - q.sent_s == doctest::Approx(latency + q.input_bytes / kBottleneck).epsilon(kTimeEpsilon));
  for (const LinkRecord& l : r.links) CHECK(l.name.find("wan") == std::string::npos);
}

TEST_CASE("the same job with a faster CPU spends proportionally less CPU time") {
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cpu_speed"] = 2.0;
  const auto r = test::simulate_isolated(test::parse(d));
  CHECK(r.events.at(0).cpu_s == doctest::Approx(1.0).epsilon(kTimeEpsilon));
  CHECK(r.events.at(0).preprocess_s == doctest::Approx(0.25).epsilon(kTimeEpsilon));
}

TEST_CASE("N jobs uploading at once through one shared link each get bandwidth / N") {
  for (int n : {2, 5}) {
    json d = one_request_per_job(n);
    d["simulation"]["outputs"] = {"requests"};
    const auto r = test::simulate_isolated(test::parse(d));
    REQUIRE(r.requests.size() == static_cast<std::size_t>(n));
    const double bytes = 100 * 4000.0;
    for (const RequestRecord& q : r.requests)
      CHECK(q.arrived_s - q.sent_s ==
            doctest::Approx(kOneWayLatency + bytes / (kBottleneck / n)).epsilon(kTimeEpsilon));
  }
}

TEST_CASE("a TCP window bounds one flow at tcp_gamma / (2 x route latency)") {
  json d = test::base_scenario();
  for (auto* link : {&d["platform"]["site_uplink"], &d["platform"]["wan"]}) (*link)["bandwidth"] = "100Gbps";
  d["platform"]["worker_pools"][0]["nic"]["bandwidth"] = "100Gbps";
  d["platform"]["servers"][0]["nic"]["bandwidth"] = "100Gbps";
  d["simulation"]["network"]["tcp_gamma"] = "1MB";
  d["simulation"]["outputs"] = {"requests"};
  const auto r = test::simulate_isolated(test::parse(d));
  const double window_rate = 1e6 / (2 * kOneWayLatency);  // 446 MB/s, well below 100 Gbps
  const RequestRecord& q = r.requests.at(0);
  CHECK(q.arrived_s - q.sent_s == doctest::Approx(kOneWayLatency + q.input_bytes / window_rate).epsilon(kTimeEpsilon));
}

TEST_CASE("requests arriving together at one instance are served first come, first served") {
  json d = one_request_per_job(3);
  d["simulation"]["outputs"] = {"requests"};
  const auto r = test::simulate_isolated(test::parse(d));
  std::vector<double> waits;
  for (const RequestRecord& q : r.requests) waits.push_back(q.exec_start_s - q.arrived_s);
  std::sort(waits.begin(), waits.end());
  REQUIRE(waits.size() == 3);
  CHECK(waits[0] == doctest::Approx(0.0));
  CHECK(waits[1] == doctest::Approx(tau(100)).epsilon(kTimeEpsilon));
  CHECK(waits[2] == doctest::Approx(2 * tau(100)).epsilon(kTimeEpsilon));
  // One GPU busy for three kernels back to back.
  CHECK(r.gpus.at(0).busy_s == doctest::Approx(3 * tau(100)).epsilon(kTimeEpsilon));
}

TEST_CASE("requests that reach the dynamic batcher at one instant are batched together, in the order sent") {
  // n identical jobs, one per node, in lock step: 10 ms of CPU, then one 1-item request. The n
  // uploads share the 1 Gbps site uplink and arrive at one instant; with no batching delay the
  // batcher takes them all at once, so every event takes
  //   10 ms + 2 x route latency + n x (4000 + 400) B / B + tau(n)
  // and every batch holds n requests. Forming a batch from the first arrival alone would give a
  // batch of 1 followed by one of n - 1.
  for (int n : {2, 100}) {
    json d = fast_platform(test::base_scenario(), n);
    d["workload"]["events_per_job"] = 5;
    d["workload"]["modules"][0]["time"] = "10ms";
    d["workload"]["modules"][1]["preprocess"] = "0s";
    d["workload"]["modules"][1]["items_per_event"] = 1;
    d["workload"]["modules"][1]["items_per_request"] = 1;
    d["models"]["m"]["dynamic_batching"] = json::object();
    d["simulation"]["outputs"] = {"events", "requests", "batches"};
    const auto r = test::simulate_isolated(test::parse(d));
    const double expected = 10e-3 + 2 * kOneWayLatency + n * (4000.0 + 400.0) / kBottleneck + tau(n);
    REQUIRE(r.events.size() == static_cast<std::size_t>(5 * n));
    for (const EventRecord& e : r.events) CHECK(e.time_s() == doctest::Approx(expected).epsilon(kTimeEpsilon));
    REQUIRE(r.batches.size() == 5);
    for (const BatchRecord& b : r.batches) CHECK(b.requests == n);
  }
}

TEST_CASE("requests that reach the scheduler at one instant are served in the order they were sent") {
  // Two jobs in lock step as above, with Triton's default scheduler (one request per batch): the
  // request sent first (the lower id) runs first, the other tau(1) later.
  for (int jobs : {2, 5}) {
    json d = fast_platform(test::base_scenario(), jobs);
    d["workload"]["modules"][0]["time"] = "10ms";
    d["workload"]["modules"][1]["preprocess"] = "0s";
    d["workload"]["modules"][1]["items_per_event"] = 1;
    d["workload"]["modules"][1]["items_per_request"] = 1;
    d["simulation"]["outputs"] = {"requests"};
    const auto r = test::simulate_isolated(test::parse(d));
    REQUIRE(r.requests.size() == static_cast<std::size_t>(jobs));
    for (const RequestRecord& q : r.requests) {
      CHECK(q.arrived_s == r.requests[0].arrived_s);
      CHECK(q.exec_start_s - q.arrived_s == doctest::Approx(q.id * tau(1)).epsilon(kTimeEpsilon));
    }
  }
}

TEST_CASE("two instances on one GPU time-share it: concurrent kernels each take twice as long") {
  json d = one_request_per_job(2);
  d["models"]["m"]["instances_per_gpu"] = 2;
  d["simulation"]["outputs"] = {"batches"};
  const auto r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.batches.size() == 2);
  CHECK(r.batches[0].instance != r.batches[1].instance);
  for (const BatchRecord& b : r.batches)
    CHECK(b.end_s - b.start_s == doctest::Approx(2 * tau(100)).epsilon(kTimeEpsilon));
  CHECK(r.gpus.at(0).busy_s == doctest::Approx(2 * tau(100)).epsilon(kTimeEpsilon));
}

TEST_CASE("instances on different GPUs run concurrently at full speed") {
  json d = one_request_per_job(2);
  d["platform"]["servers"][0]["gpus_per_server"] = 2;
  d["simulation"]["outputs"] = {"batches"};
  const auto r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.batches.size() == 2);
  CHECK(r.batches[0].gpu != r.batches[1].gpu);
  CHECK(r.batches[0].start_s == r.batches[1].start_s);
  for (const BatchRecord& b : r.batches) CHECK(b.end_s - b.start_s == doctest::Approx(tau(100)).epsilon(kTimeEpsilon));
  for (const GpuRecord& g : r.gpus) CHECK(g.busy_s == doctest::Approx(tau(100)).epsilon(kTimeEpsilon));
}

TEST_CASE("instances that go idle at one instant take the next batch lowest index first") {
  // Three jobs in lock step on two GPUs, one instance each, default scheduler: each round, two
  // requests start at once on instances 0 and 1 and end together; the third, queued, then goes to
  // the lowest index (instance 0), whatever order SimGrid ran the two instances' actors in.
  json d = one_request_per_job(3);
  d["workload"]["events_per_job"] = 4;
  d["platform"]["servers"][0]["gpus_per_server"] = 2;
  d["simulation"]["outputs"] = {"batches"};
  const auto r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.batches.size() == 12);
  std::map<double, std::vector<int>> by_start;
  for (const BatchRecord& b : r.batches) by_start[b.start_s].push_back(b.instance);
  int queued = 0;
  for (const auto& [start, instances] : by_start) {
    if (instances.size() != 1) continue;  // the round's first two, one on each instance
    CHECK(instances[0] == 0);
    ++queued;
  }
  CHECK(queued == 4);
}

TEST_CASE("same scenario and seed give identical results; another seed does not") {
  json d = fast_platform(test::base_scenario(), 3);
  d["workload"]["events_per_job"] = 4;
  d["workload"]["modules"][0]["time"] = {{"distribution", "normal"}, {"mean", "2s"}, {"stddev", "0.5s"}};
  d["workload"]["modules"][1]["preprocess"] = {{"distribution", "exponential"}, {"mean", "0.1s"}};
  const auto a = test::simulate_isolated(test::parse(d));
  const auto b = test::simulate_isolated(test::parse(d));
  CHECK(json(a.events).dump() == json(b.events).dump());
  CHECK(json(a.requests).dump() == json(b.requests).dump());
  d["simulation"]["seed"] = 8;
  const auto c = test::simulate_isolated(test::parse(d));
  CHECK(json(a.events).dump() != json(c.events).dump());
}

TEST_CASE("conservation: every request sent is answered, with ordered timestamps") {
  json d = fast_platform(test::base_scenario(), 6);
  d["platform"]["servers"][0]["count"] = 2;
  d["platform"]["servers"][0]["gpus_per_server"] = 2;
  d["platform"]["load_balancing"] = "round_robin";
  d["workload"]["events_per_job"] = 3;
  d["workload"]["modules"][1]["in_flight"] = 3;
  d["workload"]["modules"][1]["items_per_request"] = 70;  // 15 requests per event, the last of 20 items
  d["workload"]["modules"][0]["time"] = {{"distribution", "exponential"}, {"mean", "0.05s"}};
  const auto r = test::simulate_isolated(test::parse(d));
  CHECK(r.requests_sent == 6 * 3 * 15);
  CHECK(r.requests_completed == r.requests_sent);
  CHECK(r.requests_rejected == 0);
  CHECK(r.requests_in_flight_at_end == 0);
  CHECK(static_cast<std::int64_t>(r.requests.size()) == r.requests_sent);
  std::map<int, int> per_server;
  std::int64_t items = 0;
  for (const RequestRecord& q : r.requests) {
    CHECK(q.status == RequestStatus::Completed);
    CHECK(q.sent_s <= q.arrived_s);
    CHECK(q.arrived_s <= q.exec_start_s);
    CHECK(q.exec_start_s < q.exec_end_s);
    CHECK(q.exec_end_s <= q.received_s);
    ++per_server[q.server];
    items += q.items;
  }
  CHECK(items == 6 * 3 * 1000);
  CHECK(per_server[0] == per_server[1]);  // round robin alternates
  for (const EventRecord& e : r.events) CHECK(e.requests == 15);
  CHECK(r.batch_units_executed == items);
}

TEST_CASE("requests larger than max_batch_size are rejected, answered, and the event goes on") {
  json d = test::base_scenario();
  d["models"]["m"]["max_batch_size"] = 200;
  const auto r = test::simulate_isolated(test::parse(d));
  CHECK(r.requests_sent == 4);
  CHECK(r.requests_rejected == 3);  // three of 300 items; the last one of 100 fits
  CHECK(r.requests_completed == 1);
  CHECK(r.events.at(0).rejected_requests == 3);
  CHECK(r.events.at(0).gpu_s == doctest::Approx(tau(100)).epsilon(kTimeEpsilon));
}

TEST_CASE("a duration-limited run stops at the duration and accounts for work cut off") {
  json d = test::base_scenario();
  d["workload"].erase("events_per_job");
  d["workload"]["duration"] = "10s";
  const auto r = test::simulate_isolated(test::parse(d));
  CHECK(r.end_s == doctest::Approx(10.0));
  // One event takes about 2.56 s: three complete, the fourth is cut off.
  CHECK(r.events.size() == 3);
  CHECK(r.events_incomplete == 1);
  CHECK(r.requests_sent == r.requests_completed + r.requests_rejected + r.requests_in_flight_at_end);
}

TEST_CASE("start patterns: staggered, waves and spread") {
  json d = fast_platform(test::base_scenario(), 4);
  d["workload"]["start"] = {{"pattern", "staggered"}, {"interval", "1s"}};
  auto r = test::simulate_isolated(test::parse(d));
  std::vector<double> starts(4);
  for (const EventRecord& e : r.events) starts[e.job] = e.start_s;
  CHECK(starts == std::vector<double>{0, 1, 2, 3});
  d["workload"]["start"] = {{"pattern", "waves"}, {"jobs_per_wave", 2}, {"period", "5s"}};
  r = test::simulate_isolated(test::parse(d));
  for (const EventRecord& e : r.events) starts[e.job] = e.start_s;
  CHECK(starts == std::vector<double>{0, 0, 5, 5});
  d["workload"]["start"] = {{"pattern", "spread"}, {"window", "10s"}};
  r = test::simulate_isolated(test::parse(d));
  for (const EventRecord& e : r.events) starts[e.job] = e.start_s;
  CHECK(starts == std::vector<double>{0, 2.5, 5, 7.5});
}

TEST_CASE("a model served by no server runs on the CPU for its fallback time, instead of preprocessing") {
  json d = test::base_scenario();
  d["platform"]["servers"] = json::array();
  d["workload"]["modules"][1]["cpu_fallback"] = "20s";
  const auto r = test::simulate_isolated(test::parse(d));
  // 2 s of CPU module, then the 20 s fallback; the module's 0.5 s preprocessing does not run.
  CHECK(r.events.at(0).time_s() == doctest::Approx(2 + 20).epsilon(kTimeEpsilon));
  CHECK(r.events.at(0).preprocess_s == 0);
  CHECK(r.requests_sent == 0);
}

TEST_CASE("link accounting charges each request's bytes to every link of its route") {
  const auto r = test::simulate_isolated(test::parse(test::base_scenario()));
  std::map<std::string, double> bytes;
  for (const LinkRecord& l : r.links) bytes[l.name] = l.bytes;
  CHECK(bytes["wan (to servers)"] == doctest::Approx(1000 * 4000.0));
  CHECK(bytes["site-uplink (to servers)"] == doctest::Approx(1000 * 4000.0));
  CHECK(bytes["nic:w-0 (to servers)"] == doctest::Approx(1000 * 4000.0));
  CHECK(bytes["nic:s-0 (to workers)"] == doctest::Approx(1000 * 400.0));
}

TEST_CASE("a simulation that deadlocks is an error naming the scenario, not a result") {
  // The parser refuses zero-byte requests because SimGrid never completes a zero-byte transfer
  // between hosts; bypassing it gives a run in which every job waits forever.
  Scenario s = test::parse(test::base_scenario());
  s.models.at(0).input_bytes_per_item = 0;
  CHECK_THROWS_WITH_AS(test::simulate_isolated(s),
                       doctest::Contains("test.json: /: the simulation cannot go on at t = "), InputError);
}
