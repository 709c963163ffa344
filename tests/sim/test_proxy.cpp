// An Envoy proxy between the jobs and the servers: what it learns of a dead server and when, the
// bytes its NIC carries and the CPU it shares, on the farm of tests/sim/failure_farm.hpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "tests/sim/failure_farm.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using namespace sonicsim::test;
using nlohmann::json;

TEST_CASE("through a proxy, a dead server is chosen until the next DNS refresh; each try waits the connect timeout") {
  // One job: 100 ms of CPU, one request, round_robin over s0 and s1 through a proxy; its request k
  // goes to server k mod 2 while both are listed. s0 dies at 1.05 s; the proxy lists it until its
  // DNS refresh at 5 s. Events 0-9 end by 1.01 s. Then pairs of events: one to dead s0 (100 ms CPU,
  // 250 ms connect timeout, 5 ms fallback), one to s1 (100 ms + 1 ms): 456 ms a pair. Requests to
  // s0 leave at 1.110 + 0.456 j s; those before 5 s are j = 0..8: 9 failures, none after.
  json d = failure_farm(40, "round_robin");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["workload"]["jobs"] = 1;
  d["platform"]["servers"][0]["failures"] = {{"at", {"1.05s"}}};
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "100Gbps"}, {"latency", "1ns"}}}, {"connect_timeout", "250ms"}};
  d["workload"]["modules"][0]["time"] = "100ms";
  ml_module(d)["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.failures.value().unavailable == 9);
  int j = 0;
  for (const RequestRecord& q : r.requests) {
    if (q.status != RequestStatus::Failed) continue;
    CHECK(q.server == 0);
    CHECK(q.sent_s == doctest::Approx(1.110 + 0.456 * j).epsilon(1e-5));
    CHECK(q.received_s - q.sent_s == doctest::Approx(0.250).epsilon(1e-5));
    ++j;
  }
  for (const RequestRecord& q : r.requests)
    if (q.sent_s > 5.0) CHECK(q.server == 1);
}

TEST_CASE("every request crosses the proxy's NIC twice") {
  // One request of 1 MB through a proxy whose NIC carries 80 Mbit/s (10 MB/s), every other link
  // 100 Gbit/s: the upload takes 0.1 s into the proxy and 0.1 s out of it (the two directions of
  // a full-duplex NIC), so the request's network time is 0.2 s plus nanoseconds.
  json d = failure_farm(1, "round_robin");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["workload"]["jobs"] = 1;
  d["platform"]["servers"][0].erase("failures");
  d["models"]["m"]["input_bytes_per_item"] = "1MB";
  d["simulation"]["network"]["tcp_gamma"] = "0B";
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "80Mbps"}, {"latency", "1ns"}}}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.requests.size() == 1);
  const RequestRecord& q = r.requests[0];
  CHECK(q.arrived_s - q.sent_s == doctest::Approx(0.2).epsilon(1e-4));
}

TEST_CASE("the proxy's CPU is shared by the requests it holds") {
  // 4 jobs send at 10 ms; one proxy thread spends 2 ms on each. Processor sharing finishes the four
  // together, 8 ms later: every request reaches its server at 18 ms.
  json d = failure_farm(1, "round_robin");
  d["platform"]["servers"][0].erase("failures");
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "100Gbps"}, {"latency", "1ns"}}}, {"per_request", "2ms"}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.requests.size() == 4);
  for (const RequestRecord& q : r.requests) CHECK(q.arrived_s == doctest::Approx(0.018).epsilon(1e-5));
}
