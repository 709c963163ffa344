// The server frontend (Triton's protocol handler threads): closed forms for its parsing and
// serialising costs, its thread limit, and its place outside Triton's queue statistics.
#include <doctest/doctest.h>

#include "analysis/summary/summary.hpp"
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

// Parse: 1 ms + bytes at 0.8 Gbps (100 MB/s); serialise: 0.5 ms + bytes at 0.4 Gbps (50 MB/s).
json with_frontend(json d, int threads) {
  d["platform"]["servers"][0]["frontend"] = {{"threads", threads},
                                             {"per_request", "1ms"},
                                             {"input_bandwidth", "0.8Gbps"},
                                             {"per_response", "0.5ms"},
                                             {"output_bandwidth", "0.4Gbps"}};
  d["simulation"]["outputs"] = {"requests"};
  return d;
}
double parse_s(double bytes) { return 1e-3 + bytes / 100e6; }
double serialise_s(double bytes) { return 0.5e-3 + bytes / 50e6; }

}  // namespace

TEST_CASE("one job: every request adds its parsing and serialising time, in the frontend column") {
  const auto r = test::simulate_isolated(test::parse(with_frontend(test::base_scenario(), 2)));
  double expected_inference = 0, expected_frontend = 0;
  for (int items : {300, 300, 300, 100}) {
    const double in = items * 4000.0, out = items * 400.0;
    expected_frontend += parse_s(in) + serialise_s(out);
    expected_inference += 2 * kOneWayLatency + (in + out) / kBottleneck + tau(items) + parse_s(in) + serialise_s(out);
  }
  const EventRecord& e = r.events.at(0);
  CHECK(e.time_s() == doctest::Approx(2.0 + 0.5 + expected_inference).epsilon(kTimeEpsilon));
  CHECK(e.frontend_s == doctest::Approx(expected_frontend).epsilon(kTimeEpsilon));
  CHECK(e.queue_s == doctest::Approx(0.0));
  CHECK(e.network_s + e.frontend_s + e.queue_s + e.gpu_s == doctest::Approx(e.inference_s).epsilon(kTimeEpsilon));
  for (const RequestRecord& q : r.requests) {
    CHECK(q.enqueued_s - q.arrived_s == doctest::Approx(parse_s(q.input_bytes)).epsilon(kTimeEpsilon));
    CHECK(q.responded_s - q.exec_end_s == doctest::Approx(serialise_s(q.output_bytes)).epsilon(kTimeEpsilon));
    CHECK(q.exec_start_s == doctest::Approx(q.enqueued_s).epsilon(kTimeEpsilon));
  }
}

TEST_CASE("one handler thread parses simultaneous requests one after the other; Triton's queue starts after") {
  // Three jobs on three nodes send one 100-item request each at time 0; the uploads share the
  // uplink equally and arrive together. One thread: they enter the scheduler c, 2c and 3c later.
  json d = test::three_requests_at_once(with_frontend(test::base_scenario(), 1));
  const auto r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.requests.size() == 3);
  std::vector<double> enqueued;
  for (const RequestRecord& q : r.requests) {
    CHECK(q.arrived_s == doctest::Approx(kOneWayLatency + 3 * 400e3 / kBottleneck).epsilon(kTimeEpsilon));
    enqueued.push_back(q.enqueued_s - q.arrived_s);
  }
  std::sort(enqueued.begin(), enqueued.end());
  const double c = parse_s(400e3);
  CHECK(enqueued[0] == doctest::Approx(c).epsilon(kTimeEpsilon));
  CHECK(enqueued[1] == doctest::Approx(2 * c).epsilon(kTimeEpsilon));
  CHECK(enqueued[2] == doctest::Approx(3 * c).epsilon(kTimeEpsilon));
  // Parsing (5 ms each) outlasts tau(100) = 2 ms, so no request waits in Triton's queue: its
  // queue statistics are zero although each waited for the handler thread.
  const Summary s = summarize(r);
  REQUIRE(s.triton.size() == 1);
  REQUIRE(s.triton[0].models.size() == 1);
  CHECK(s.triton[0].models[0].queue.ns == 0);
}

TEST_CASE("a frontend cost shorter than SimGrid's precision is kept exactly") {
  // 2 us of parsing, 3 us of serialising, no per-byte cost: within SimGrid's timing precision
  // (10 us), inside which it ends an action (a sleep) together with the current step; the handler
  // threads' timers keep them exactly.
  json d = test::base_scenario();
  d["platform"]["servers"][0]["frontend"] = {{"threads", 2}, {"per_request", "2us"}, {"per_response", "3us"}};
  d["simulation"]["outputs"] = {"requests"};
  const auto r = test::simulate_isolated(test::parse(d));
  REQUIRE(!r.requests.empty());
  for (const RequestRecord& q : r.requests) {
    CHECK(q.enqueued_s - q.arrived_s == doctest::Approx(2e-6).epsilon(1e-3));
    CHECK(q.responded_s - q.exec_end_s == doctest::Approx(3e-6).epsilon(1e-3));
  }
}

TEST_CASE("frontend settings are checked: threads at least 1, units explicit") {
  json d = with_frontend(test::base_scenario(), 0);
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/platform/servers/0/frontend/threads"), InputError);
  d = with_frontend(test::base_scenario(), 1);
  d["platform"]["servers"][0]["frontend"]["input_bandwidth"] = "100";
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/platform/servers/0/frontend/input_bandwidth"), InputError);
}
