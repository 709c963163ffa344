// Per-request load balancing in whole simulations, against an independent model of Envoy's
// least_request (power of two choices).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

#include "models/workload/rng.hpp"
#include "tests/support/negligible_network_farm.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// `jobs` jobs, each on its own core, alternate an exponential CPU step of mean `think` with one
// request of one item. Each server has one GPU and one instance of the model under Triton's default
// scheduler, so it serves one request at a time in arrival order; kernel times are constant per
// GPU type (FAST 1 ms, SLOW 3 ms). The network is negligible: 1 ns latencies, 100 Gbps, 100-byte
// requests (about 10 ns per request against milliseconds of service).
json balancing_farm(int jobs, int events_per_job, const std::string& think, const std::vector<std::string>& gpu_types,
                    const std::string& policy) {
  json d = test::negligible_network_farm(jobs, policy);
  std::string name = "s0";  // s0, s1...: at most ten servers
  for (const std::string& type : gpu_types) {
    d["platform"]["servers"].push_back(test::one_gpu_servers(name, 1, type));
    ++name[1];
  }
  d["models"]["m"] = test::one_instance_model();
  d["models"]["m"]["kernel_latency_by_gpu"] = {{"FAST", test::constant_kernel("1ms")},
                                               {"SLOW", test::constant_kernel("3ms")}};
  const json think_module = {
      {"type", "cpu"}, {"name", "think"}, {"time", {{"distribution", "exponential"}, {"mean", think}}}};
  d["workload"] = {{"jobs", jobs},
                   {"events_per_job", events_per_job},
                   {"start", {{"pattern", "all_at_once"}}},
                   {"modules", json::array({think_module, test::one_request_module()})}};
  d["simulation"]["outputs"] = {"requests"};
  return d;
}

std::vector<double> request_shares(const SimulationResults& r) {
  std::vector<double> counts(r.header.server_names.size(), 0.0);
  for (const RequestRecord& q : r.requests) ++counts.at(static_cast<std::size_t>(q.server));
  for (double& c : counts) c /= static_cast<double>(r.requests.size());
  return counts;
}

// Coefficient of variation of the GPUs' busy times.
double busy_time_cv(const SimulationResults& r) {
  std::vector<double> busy;
  for (const GpuRecord& g : r.gpus) busy.push_back(g.busy_s);
  const double mean = std::accumulate(busy.begin(), busy.end(), 0.0) / static_cast<double>(busy.size());
  double var = 0;
  for (const double b : busy) var += (b - mean) * (b - mean);
  return std::sqrt(var / static_cast<double>(busy.size())) / mean;
}

// An independent model of the same farm, written from Envoy's description (not from sonicsim):
// `clients` clients alternate an exponential think time with one request; the request goes to the
// server that power-of-two-choices picks (two uniform draws with replacement, fewer requests in
// flight wins, a tie keeps the first), waits there first come, first served and takes
// service_s[server]. Returns each server's share of `requests` requests.
std::vector<double> p2c_model_shares(int clients, double think_s, const std::vector<double>& service_s, long requests,
                                     std::uint64_t seed) {
  struct Event {
    double t;
    int client;
    int server;  // -1: the client's think time ends; else: its service at `server` ends
    bool operator>(const Event& o) const { return t > o.t; }
  };
  Rng rng(seed);
  const std::size_t n = service_s.size();
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  std::vector<std::queue<int>> waiting(n);
  std::vector<long> active(n, 0), count(n, 0);
  std::vector<bool> busy(n, false);
  for (int c = 0; c < clients; ++c) events.push({-think_s * std::log(rng.uniform_open_zero()), c, -1});
  long sent = 0;
  while (sent < requests) {
    const Event e = events.top();
    events.pop();
    if (e.server < 0) {
      std::size_t s = rng.below(n);
      if (const std::size_t second = rng.below(n); active[second] < active[s]) s = second;
      ++active[s], ++count[s], ++sent;
      if (busy[s]) {
        waiting[s].push(e.client);
      } else {
        busy[s] = true;
        events.push({e.t + service_s[s], e.client, static_cast<int>(s)});
      }
    } else {
      const auto s = static_cast<std::size_t>(e.server);
      --active[s];
      events.push({e.t - think_s * std::log(rng.uniform_open_zero()), e.client, -1});
      if (waiting[s].empty()) {
        busy[s] = false;
      } else {
        events.push({e.t + service_s[s], waiting[s].front(), e.server});
        waiting[s].pop();
      }
    }
  }
  std::vector<double> shares;
  for (const long c : count) shares.push_back(static_cast<double>(c) / static_cast<double>(sent));
  return shares;
}

}  // namespace

TEST_CASE("identical servers: least_request balances requests within 2% over 10^5, like round_robin; per_job does not" *
          doctest::test_suite("large")) {
  // 16 jobs on 4 servers at about 45% load; per_job with 6 jobs puts 2, 2, 1 and 1 jobs on them.
  for (const int servers : {2, 4}) {
    const std::vector<std::string> types(static_cast<std::size_t>(servers), "FAST");
    const auto least = test::simulate_isolated(test::parse(balancing_farm(16, 6250, "8ms", types, "least_request")));
    REQUIRE(least.requests.size() == 100000);
    const auto shares = request_shares(least);
    for (const double share : shares) CHECK(share * servers == doctest::Approx(1).epsilon(0.02));
    // round_robin is exact whatever the count: 10^4 requests suffice.
    const auto robin = test::simulate_isolated(test::parse(balancing_farm(16, 625, "8ms", types, "round_robin")));
    for (const double share : request_shares(robin))
      CHECK(share * 10000 == doctest::Approx(10000.0 / servers).epsilon(1e-6));
    MESSAGE(servers << " servers: least_request shares " << json(shares).dump() << ", busy-time CV "
                    << busy_time_cv(least) << "; round_robin busy-time CV " << busy_time_cv(robin));
  }
  const auto per_job =
      test::simulate_isolated(test::parse(balancing_farm(6, 2000, "8ms", {"FAST", "FAST", "FAST", "FAST"}, "per_job")));
  const auto shares = request_shares(per_job);
  CHECK(shares == std::vector<double>{2 / 6.0, 2 / 6.0, 1 / 6.0, 1 / 6.0});  // every job sends 2000 requests
  MESSAGE("per_job, 6 jobs on 4 servers: busy-time CV " << busy_time_cv(per_job));
  CHECK(busy_time_cv(per_job) > 0.3);  // busy times about 2:2:1:1 (CV 1/3)
}

TEST_CASE("least_request sends fewer requests to a server 3x slower, as an independent P2C model predicts" *
          doctest::test_suite("large")) {
  // 8 jobs, mean think 4 ms, servers of 1 ms and 3 ms: random splits 50/50 whatever the speeds.
  const auto r =
      test::simulate_isolated(test::parse(balancing_farm(8, 12500, "4ms", {"FAST", "SLOW"}, "least_request")));
  REQUIRE(r.requests.size() == 100000);
  const double simulated = request_shares(r)[1];
  const double model = p2c_model_shares(8, 4e-3, {1e-3, 3e-3}, 2000000, 42)[1];
  const auto random = test::simulate_isolated(test::parse(balancing_farm(8, 12500, "4ms", {"FAST", "SLOW"}, "random")));
  MESSAGE("slow server's share: least_request " << simulated << " (independent model " << model << "), random "
                                                << request_shares(random)[1]);
  CHECK(simulated == doctest::Approx(model).epsilon(0.03));
  CHECK(model < 0.45);  // the comparison means something: P2C moves load off the slow server
  CHECK(request_shares(random)[1] == doctest::Approx(0.5).epsilon(0.02));
}
