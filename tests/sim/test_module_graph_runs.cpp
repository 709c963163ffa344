// Events whose modules form a graph ("after"), against closed forms. One job on a node with spare
// cores, one event unless said otherwise. Each inference module calls its own model on the one
// server with no contention: max_batch_size 1, more instances than calls, kernel_overlap 1, so
// that every kernel takes its own latency whatever else runs. With CM02, no TCP window and factors
// 1 (test_simulation.cpp), a call's round trip is
//   L = kernel + 2 x route latency + (4 B up + 4 B down) / bottleneck
// (test::kOneWayLatency, test::kBottleneck: the base scenario's route). Calls sent at the same
// instant share the site uplink: their 4-byte messages take up to 2 x 32 ns instead of 32 ns each
// way, hence a relative tolerance of 1e-6 on times of tens of ms.
//
// Closed forms: ExternalWork calls free their thread, so independent ones overlap and the event
// pays max(L1, L2), where a chain pays L1 + L2; a diamond A -> {B, C} -> D pays A + max(B, C) + D;
// independent CPU modules on T threads of one stream run T at a time.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <simgrid/s4u.hpp>

#include "analysis/invariants.hpp"
#include "cli/processes/isolated_run.hpp"
#include "sim/simulation.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

constexpr double kKernel1 = 0.020, kKernel2 = 0.035;  // s
constexpr double kGraphTimeEpsilon = 1e-6;

double round_trip(double kernel_s) { return kernel_s + 2 * test::kOneWayLatency + 8 / test::kBottleneck; }

json model(double kernel_s) {
  return {{"input_bytes_per_item", "4B"},
          {"output_bytes_per_item", "4B"},
          {"max_batch_size", 1},
          {"instances_per_gpu", 8},
          {"kernel_latency", {{"type", "affine"}, {"intercept", std::to_string(kernel_s) + "s"}, {"per_item", "0s"}}}};
}

json call(const std::string& name, const std::string& model_name, bool external_work) {
  return {{"type", "inference"},    {"name", name},       {"model", model_name}, {"items_per_event", 1},
          {"items_per_request", 1}, {"preprocess", "0s"}, {"in_flight", 1},      {"external_work", external_work}};
}

json cpu(const std::string& name, double seconds) {
  return {{"type", "cpu"}, {"name", name}, {"time", std::to_string(seconds) + "s"}};
}

// One job on a 16-core node; models m1 (kernel kKernel1) and m2 (kKernel2) on the one server.
json scenario(const json& modules) {
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = 16;
  d["platform"]["servers"][0]["kernel_overlap"] = 1;
  d["platform"]["servers"][0]["models"] = {"m1", "m2"};
  d["models"] = {{"m1", model(kKernel1)}, {"m2", model(kKernel2)}};
  d["workload"]["modules"] = modules;
  d["simulation"]["outputs"] = {"events", "requests"};
  return d;
}

// 30 events of a diamond A -> {B, C} -> D (B, C ExternalWork calls) on 3 streams sharing 2 threads.
json diamonds_on_three_streams() {
  json modules = {cpu("A", 0.1), call("B", "m1", true), call("C", "m2", true), cpu("D", 0.05)};
  modules[1]["after"] = {"A"};
  modules[2]["after"] = {"A"};
  modules[3]["after"] = {"B", "C"};
  json d = scenario(modules);
  d["workload"]["threads"] = 2;
  d["workload"]["streams"] = 3;
  d["workload"]["events_per_job"] = 30;
  return d;
}

SimulationResults run_graph(const json& d) {
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  CHECK(first_invariant_violation(r, false).empty());
  return r;
}

double only_event_time(const json& d) {
  const SimulationResults r = run_graph(d);
  REQUIRE(r.events.size() == 1);
  return r.events[0].time_s();
}

}  // namespace

TEST_CASE("two independent ExternalWork calls cost the longer round trip, not the sum") {
  json modules = {call("b", "m1", true), call("c", "m2", true)};
  modules[0]["after"] = json::array();  // a graph: neither waits for the other
  const SimulationResults r = run_graph(scenario(modules));
  REQUIRE(r.events.size() == 1);
  const double l1 = round_trip(kKernel1), l2 = round_trip(kKernel2);
  CHECK(r.events[0].time_s() == doctest::Approx(std::max(l1, l2)).epsilon(kGraphTimeEpsilon));
  // The critical path is the longer call; the request sums cover both.
  CHECK(r.events[0].inference_s == doctest::Approx(l2).epsilon(kGraphTimeEpsilon));
  CHECK(r.events[0].requests == 2);
  CHECK(r.events[0].gpu_s == doctest::Approx(kKernel1 + kKernel2).epsilon(1e-9));
}

TEST_CASE("the same calls chained by after, or without a graph, cost the sum") {
  json modules = {call("b", "m1", true), call("c", "m2", true)};
  const double sum = round_trip(kKernel1) + round_trip(kKernel2);
  CHECK(only_event_time(scenario(modules)) == doctest::Approx(sum).epsilon(kGraphTimeEpsilon));
  modules[1]["after"] = {"b"};
  CHECK(only_event_time(scenario(modules)) == doctest::Approx(sum).epsilon(kGraphTimeEpsilon));
  modules[1].erase("after");
  modules[0]["after"] = {"c"};  // c first, then b: the same sum
  CHECK(only_event_time(scenario(modules)) == doctest::Approx(sum).epsilon(kGraphTimeEpsilon));
}

TEST_CASE("a blocking (Sync) call holds its thread: on one thread, independent ones still cost the sum") {
  json modules = {call("b", "m1", false), call("c", "m2", false)};
  modules[0]["after"] = json::array();
  const double l1 = round_trip(kKernel1), l2 = round_trip(kKernel2);
  json d = scenario(modules);
  const Scenario one = test::parse(d);
  CHECK(one.workload.threaded());  // a graph runs on the job's threads: one, unless given
  CHECK(one.workload.threads == 1);
  CHECK(one.workload.streams == 1);
  CHECK(only_event_time(d) == doctest::Approx(l1 + l2).epsilon(kGraphTimeEpsilon));
  d["workload"]["threads"] = 2;  // two threads: each blocking call on its own
  CHECK(only_event_time(d) == doctest::Approx(std::max(l1, l2)).epsilon(kGraphTimeEpsilon));
}

TEST_CASE("a diamond A -> {B, C} -> D costs A + max(B, C) + D, on one thread") {
  constexpr double a = 0.1, d_s = 0.05;  // CPU seconds
  json modules = {cpu("A", a), call("B", "m1", true), call("C", "m2", true), cpu("D", d_s)};
  modules[1]["after"] = {"A"};
  modules[2]["after"] = {"A"};
  modules[3]["after"] = {"B", "C"};
  const SimulationResults r = run_graph(scenario(modules));
  REQUIRE(r.events.size() == 1);
  const EventRecord& e = r.events[0];
  CHECK(e.time_s() ==
        doctest::Approx(a + std::max(round_trip(kKernel1), round_trip(kKernel2)) + d_s).epsilon(kGraphTimeEpsilon));
  CHECK(e.cpu_s == doctest::Approx(a + d_s).epsilon(1e-12));
  CHECK(e.inference_s == doctest::Approx(round_trip(kKernel2)).epsilon(kGraphTimeEpsilon));
  CHECK(e.thread_wait_s == doctest::Approx(0).epsilon(1e-12));
}

TEST_CASE("independent CPU modules of one stream run on the job's threads at once, as TBB runs ready tasks") {
  constexpr double x = 0.1, y = 0.3, z = 0.2;  // CPU seconds
  json modules = {cpu("x", x), cpu("y", y), cpu("z", z)};
  modules[0]["after"] = json::array();
  json d = scenario(modules);
  d["workload"]["threads"] = 1;
  CHECK(only_event_time(d) == doctest::Approx(x + y + z).epsilon(1e-12));
  d["workload"]["threads"] = 3;
  CHECK(only_event_time(d) == doctest::Approx(y).epsilon(1e-12));
  // Two threads: x and y start; z takes x's thread at x's end, and ends at x + z = 0.3 = y.
  d["workload"]["threads"] = 2;
  const SimulationResults two = run_graph(d);
  REQUIRE(two.events.size() == 1);
  CHECK(two.events[0].time_s() == doctest::Approx(std::max(y, x + z)).epsilon(1e-12));
  // Every module's CPU, and nothing else, kept a thread busy.
  CHECK(two.jobs[0].busy_thread_s == doctest::Approx(x + y + z).epsilon(1e-12));
  // Without a graph the job's one stream runs them one after another, whatever its threads.
  modules[0].erase("after");
  d["workload"]["modules"] = modules;
  CHECK(only_event_time(d) == doctest::Approx(x + y + z).epsilon(1e-12));
}

TEST_CASE("a job without threads runs its graph's CPU modules one at a time, in the order they become ready") {
  json modules = {cpu("x", 0.1), cpu("y", 0.3), cpu("z", 0.2)};
  modules[2]["after"] = {"x"};
  json d = scenario(modules);
  d["workload"]["events_per_job"] = 3;
  const SimulationResults r = run_graph(d);
  REQUIRE(r.events.size() == 3);
  for (const EventRecord& e : r.events) {
    CHECK(e.time_s() == doctest::Approx(0.6).epsilon(1e-12));
    // x and y start ready, z once x is done: x, y, z on the one thread. z's path is x then z,
    // which waited behind y for the thread: 0.3 s of CPU, 0.3 s of waiting.
    CHECK(e.cpu_s == doctest::Approx(0.3).epsilon(1e-12));
    CHECK(e.thread_wait_s == doctest::Approx(0.3).epsilon(1e-12));
  }
  CHECK(r.events[2].end_s == doctest::Approx(1.8).epsilon(1e-12));
}

TEST_CASE("streams with graphs share the job's threads, event after event; the same seed gives the same records") {
  json d = diamonds_on_three_streams();
  d["workload"]["modules"][0]["time"] = {{"distribution", "exponential"}, {"mean", "100ms"}};
  const SimulationResults first = run_graph(d), second = run_graph(d);
  REQUIRE(first.events.size() == 30);
  REQUIRE(second.events.size() == 30);
  for (std::size_t i = 0; i < first.events.size(); ++i) {
    CHECK(first.events[i].start_s == second.events[i].start_s);
    CHECK(first.events[i].end_s == second.events[i].end_s);
    CHECK(first.events[i].cpu_s == second.events[i].cpu_s);
  }
  // Each event's CPU is A's draw and D's 50 ms; the threads were busy exactly that long in all.
  double cpu_total = 0;
  for (const EventRecord& e : first.events) cpu_total += e.cpu_s;
  CHECK(first.jobs[0].busy_thread_s == doctest::Approx(cpu_total).epsilon(1e-9));
  CHECK(first.jobs[0].events == 30);
}

TEST_CASE("a stream's graph workers serve event after event: their actors are made once, not per event") {
  // A stream's workers are at most its job's threads plus one per ExternalWork module in a call
  // (sim/client/event_graph.hpp), here 2 + 2, however many events it runs; each event needs at least
  // one, so 30 events of 3 streams would make at least 30 actors if each event made its own.
  json d = diamonds_on_three_streams();
  const Scenario s = test::parse(d);
  const std::string counts = run_isolated([&] {
    int workers_made = 0;  // the workers are named after their stream, "#" and a number
    simgrid::s4u::Actor::on_creation_cb([&](const simgrid::s4u::Actor& actor) {
      if (actor.get_name().find('#') != std::string::npos) ++workers_made;
    });
    const SimulationResults r = simulate(s);
    return std::to_string(r.events.size()) + " " + std::to_string(workers_made);
  });
  CHECK(counts.substr(0, counts.find(' ')) == "30");
  const int workers_made = std::stoi(counts.substr(counts.find(' ') + 1));
  CHECK(workers_made >= 3);
  CHECK(workers_made <= 3 * (2 + 2));
}

TEST_CASE("a call that fails the job stops the event's other calls, which are cancelled") {
  json modules = {call("b", "m1", true), call("c", "m2", true)};
  modules[0]["after"] = json::array();
  modules[0]["client_timeout"] = "5ms";  // b's answer takes L1 > 5 ms: DEADLINE_EXCEEDED, the job fails
  json d = scenario(modules);
  d["workload"]["events_per_job"] = 2;
  for (const int streams : {1, 2}) {
    CAPTURE(streams);
    d["workload"]["streams"] = streams;
    d["workload"]["threads"] = streams;
    const SimulationResults r = run_graph(d);
    CHECK(r.events.empty());
    CHECK(r.failures.value().jobs_failed == 1);
    REQUIRE(r.jobs.size() == 1);
    CHECK(r.jobs[0].outcome == JobOutcome::Failed);
    CHECK(r.jobs[0].end_s == doctest::Approx(0.005).epsilon(1e-9));
    CHECK(r.failures.value().deadline_exceeded == streams);  // each stream's b
    CHECK(r.failures.value().cancelled == streams);          // each stream's c, still in flight
  }
}
