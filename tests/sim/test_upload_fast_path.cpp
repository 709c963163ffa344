// The upload fast path against SimGrid itself: the same upload traces (Poisson and bursts, below, at
// and past the uplink's capacity, NICs binding, CM02 and LV08, routes of different latencies, no TCP
// window) as bare SimGrid transfers in one process and through UploadFastPath in another (one
// engine per process), on the platform sim/platform.cpp builds. Every upload's end must agree to
// 1e-9 of its duration.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <simgrid/s4u.hpp>

#include "cli/processes/isolated_run.hpp"
#include "sim/engine_setup.hpp"
#include "sim/platform.hpp"
#include "sim/upload_fast_path.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
namespace sg4 = simgrid::s4u;

namespace {

struct Upload {
  double start_s;
  int worker;  // index in FarmPlatform::workers
  int server;  // index in FarmPlatform::servers
  double bytes;
};

// ProtoDUNE 2021's network (scenarios/protodune-2021-sonic.json): 10 Gb/s worker NICs, 100 Gb/s
// uplink and WAN, 5.85 ms of WAN latency, 32 Gb/s server NICs, TCP-gamma 3 MB (250 MB/s per upload
// at 6 ms). 16 worker nodes in two pools, 4 servers in two groups.
nlohmann::json platform_scenario() {
  nlohmann::json d = test::base_scenario();
  auto& p = d["platform"];
  p["worker_pools"] = nlohmann::json::parse(R"([
    {"name": "a", "nodes": 8, "cores_per_node": 8, "cpu_speed": 1.0, "nic": {"bandwidth": "10Gbps", "latency": "50us"}},
    {"name": "b", "nodes": 8, "cores_per_node": 8, "cpu_speed": 1.0, "nic": {"bandwidth": "10Gbps", "latency": "50us"}}])");
  p["site_uplink"] = {{"bandwidth", "100Gbps"}, {"latency", "50us"}};
  p["wan"] = {{"bandwidth", "100Gbps"}, {"latency", "5.85ms"}};
  p["servers"] = nlohmann::json::parse(R"([
    {"name": "s", "count": 2, "gpus_per_server": 1, "gpu": "T4", "nic": {"bandwidth": "32Gbps", "latency": "50us"}, "models": ["m"]},
    {"name": "t", "count": 2, "gpus_per_server": 1, "gpu": "T4", "nic": {"bandwidth": "32Gbps", "latency": "50us"}, "models": ["m"]}])");
  d["simulation"]["network"] = {{"model", "CM02"}, {"tcp_gamma", "3MB"}, {"crosstraffic", false}, {"fast_path", true}};
  return d;
}

// Poisson starts at `rate` per second, in bursts of `burst` at one instant; 15.6 MB (ProtoDUNE's
// 1693 patches of 9216 B) ± 50%.
std::vector<Upload> trace(std::uint64_t seed, int uploads, double rate, int burst, int workers, int servers) {
  std::mt19937_64 rng(seed);
  std::vector<Upload> t;
  double at = 0;
  while (static_cast<int>(t.size()) < uploads) {
    at += std::exponential_distribution<double>(rate / burst)(rng);
    for (int k = 0; k < burst && static_cast<int>(t.size()) < uploads; ++k)
      t.push_back({at, std::uniform_int_distribution<int>(0, workers - 1)(rng),
                   std::uniform_int_distribution<int>(0, servers - 1)(rng),
                   std::floor(15.6e6 * std::uniform_real_distribution<double>(0.5, 1.5)(rng))});
  }
  return t;
}

// Each upload's end, as bare SimGrid transfers (`fast` false) or through the fast path.
std::vector<double> ends(const Scenario& scenario, const std::vector<Upload>& uploads, bool fast) {
  const std::string text = run_isolated([&] {
    const auto engine = sim::make_engine(scenario.simulation);
    const sim::FarmPlatform farm = sim::build_platform(scenario);
    std::vector<double> end(uploads.size(), -1);
    std::vector<sim::InFlightRequest> requests(uploads.size());
    sim::UploadFastPath path(scenario, farm, [&](sim::InFlightRequest* r) {
      end[static_cast<std::size_t>(r->part)] = sg4::Engine::get_clock();
    });
    if (fast && !path.active()) throw std::runtime_error("the fast path is off: " + path.status());
    for (std::size_t i = 0; i < uploads.size(); ++i) {
      const Upload u = uploads[i];
      sg4::Host* from = farm.workers[static_cast<std::size_t>(u.worker)].host;
      sg4::Host* to = farm.servers[static_cast<std::size_t>(u.server)].host;
      sim::InFlightRequest* r = &requests[i];
      r->part = static_cast<std::int64_t>(i);
      r->record.server = u.server;
      r->record.input_bytes = u.bytes;
      sg4::Actor::create("upload", from, [&, u, from, to, r, i] {
        sg4::this_actor::sleep_until(u.start_s);
        if (fast) {
          path.start(r, from);
        } else {
          sg4::Comm::sendto(from, to, static_cast<std::uint64_t>(u.bytes));
          end[i] = sg4::Engine::get_clock();
        }
      });
    }
    engine->run();
    return nlohmann::json(end).dump();
  });
  return nlohmann::json::parse(text).get<std::vector<double>>();
}

void check_same_ends(const nlohmann::json& document, const std::vector<Upload>& uploads) {
  const Scenario scenario = test::parse(document);
  const std::vector<double> simgrid = ends(scenario, uploads, false);
  const std::vector<double> fast = ends(scenario, uploads, true);
  double worst = 0;
  for (std::size_t i = 0; i < uploads.size(); ++i) {
    CAPTURE(i);
    REQUIRE(simgrid[i] > uploads[i].start_s);
    const double error = std::fabs(fast[i] - simgrid[i]) / (simgrid[i] - uploads[i].start_s);
    worst = std::max(worst, error);
    CHECK(error <= 1e-9);
  }
  MESSAGE("largest difference: " << worst << " of a transfer's duration");
}

}  // namespace

TEST_CASE("uploads on the fast path end when SimGrid's transfers end") {
  const nlohmann::json base = platform_scenario();
  // The uplink carries 100 Gb/s = 12.5 GB/s: 800 uploads of 15.6 MB per second.
  SUBCASE("below the uplink's capacity, Poisson") { check_same_ends(base, trace(1, 400, 300, 1, 16, 4)); }
  SUBCASE("at the uplink's capacity, Poisson") { check_same_ends(base, trace(2, 400, 800, 1, 16, 4)); }
  SUBCASE("past the uplink's capacity, Poisson") { check_same_ends(base, trace(3, 400, 2500, 1, 16, 4)); }
  SUBCASE("bursts past the uplink's capacity") { check_same_ends(base, trace(4, 400, 1500, 25, 16, 4)); }
  SUBCASE("worker and server NICs binding") {
    // 2 Gb/s worker NICs (one upload at 250 MB/s fills one) and 3 Gb/s server NICs; the uplink
    // never binds.
    nlohmann::json d = base;
    for (auto& pool : d["platform"]["worker_pools"]) pool["nic"]["bandwidth"] = "2Gbps";
    for (auto& group : d["platform"]["servers"]) group["nic"]["bandwidth"] = "3Gbps";
    check_same_ends(d, trace(5, 400, 150, 3, 16, 4));
  }
  SUBCASE("LV08, past capacity") {
    nlohmann::json d = base;
    d["simulation"]["network"]["model"] = "LV08";
    check_same_ends(d, trace(6, 400, 1500, 2, 16, 4));
  }
  SUBCASE("routes of different latencies and NICs, LV08") {
    // Pool b 2 ms further away, group t behind a 10 Gb/s NIC: four route classes, of different
    // penalties and bounds, some NICs binding.
    nlohmann::json d = base;
    d["platform"]["worker_pools"][1]["nic"]["latency"] = "2ms";
    d["platform"]["servers"][1]["nic"]["bandwidth"] = "10Gbps";
    d["simulation"]["network"]["model"] = "LV08";
    check_same_ends(d, trace(7, 400, 1000, 2, 16, 4));
  }
  SUBCASE("routes of different latencies, CM02, no TCP window") {
    nlohmann::json d = base;
    d["platform"]["worker_pools"][1]["nic"]["latency"] = "2ms";
    d["simulation"]["network"]["tcp_gamma"] = "0B";
    check_same_ends(d, trace(8, 400, 1000, 1, 16, 4));
  }
}

TEST_CASE("an upload due within surf/precision of another event ends at that event, as SimGrid's transfers do") {
  // One upload alone on platform_scenario()'s route: 6 ms of latency (three 50 us links and the
  // 5.85 ms WAN), then TCP-gamma / (2 x latency) = 3 MB / 12 ms = 250 MB/s, below every link. SimGrid
  // finishes a transfer whose date lies less than surf/precision (1e-9 s) after any date its engine
  // reaches (network_cm02.cpp, update_actions_state_lazy), and enters its transfer phase the same
  // way: the second upload starts 0.4 ns before the first one's end, the third 0.4 ns before the
  // second one's latency phase ends. Each keeps its bound throughout: at 250 MB/s, two uploads
  // never fill the 12.5 GB/s uplink.
  const Scenario scenario = test::parse(platform_scenario());
  const double latency_s = 50e-6 + 50e-6 + 5.85e-3 + 50e-6, rate_Bps = 3e6 / (2 * latency_s), bytes = 15.6e6;
  const double first_end_s = latency_s + bytes / rate_Bps;  // 0.0684 s
  const double second_start_s = first_end_s - 0.4e-9;
  const std::vector<Upload> uploads = {
      {0.0, 0, 0, bytes}, {second_start_s, 1, 1, bytes}, {second_start_s + latency_s - 0.4e-9, 2, 2, bytes}};
  const std::vector<double> simgrid = ends(scenario, uploads, false);
  const std::vector<double> fast = ends(scenario, uploads, true);
  CHECK(simgrid[0] == doctest::Approx(second_start_s).epsilon(1e-14));  // ended early, at the second's start
  CHECK(simgrid[1] == doctest::Approx(second_start_s + latency_s - 0.4e-9 + bytes / rate_Bps).epsilon(1e-14));
  for (std::size_t i = 0; i < uploads.size(); ++i) {
    CAPTURE(i);
    CHECK(std::fabs(fast[i] - simgrid[i]) <= 1e-9 * (simgrid[i] - uploads[i].start_s));
  }
}

TEST_CASE("the fast path stays off, and says why, where its conditions do not hold") {
  auto status = [](const nlohmann::json& d) {
    const Scenario scenario = test::parse(d);
    return run_isolated([&] {
      const auto engine = sim::make_engine(scenario.simulation);
      const sim::FarmPlatform farm = sim::build_platform(scenario);
      const sim::UploadFastPath path(scenario, farm, [](sim::InFlightRequest*) {});
      return (path.active() ? "active " : "inactive ") + path.status();
    });
  };
  nlohmann::json d = platform_scenario();
  CHECK(status(d) == "active on");
  nlohmann::json crosstraffic = d;
  crosstraffic["simulation"]["network"]["crosstraffic"] = true;
  CHECK(status(crosstraffic) == "inactive off: network/crosstraffic is on");
  nlohmann::json proxy = d;
  proxy["platform"]["proxy"] = {{"nic", {{"bandwidth", "100Gbps"}, {"latency", "50us"}}}};
  proxy["platform"]["load_balancing"] = "round_robin";
  CHECK(status(proxy).starts_with("inactive off: a proxy relays the requests"));
  nlohmann::json not_asked = d;
  not_asked["simulation"]["network"].erase("fast_path");
  CHECK(status(not_asked) == "inactive ");
}
