// Per-request load balancing over a model's servers: the policies' choices step by step.
#include <doctest/doctest.h>

#include <vector>

#include "models/control/request_balancer.hpp"
#include "models/workload/rng.hpp"

using namespace sonicsim;

TEST_CASE("per_job, round_robin and random choose as their definitions say") {
  RequestBalancer per_job(LoadBalancing::PerJob, {{3, 5, 7}}, 8);
  CHECK(per_job.pick(0, 0, nullptr) == 3);
  CHECK(per_job.pick(0, 4, nullptr) == 5);
  CHECK(per_job.pick(0, 4, nullptr) == 5);
  RequestBalancer round_robin(LoadBalancing::RoundRobin, {{3, 5, 7}}, 8);
  std::vector<int> picks;
  for (int i = 0; i < 4; ++i) picks.push_back(round_robin.pick(0, 9, nullptr));
  CHECK(picks == std::vector<int>{3, 5, 7, 3});
  CHECK(round_robin.active(3) == 2);
  round_robin.answered(3);
  CHECK(round_robin.active(3) == 1);
  RequestBalancer random(LoadBalancing::Random, {{3, 5, 7}}, 8);
  Rng rng(11), same(11);
  for (int i = 0; i < 100; ++i) CHECK(random.pick(0, 0, &rng) == std::vector<int>{3, 5, 7}[same.below(3)]);
}

TEST_CASE("least_request: two draws with replacement, fewer active requests wins, a tie keeps the first draw") {
  RequestBalancer balancer(LoadBalancing::LeastRequest, {{0, 1, 2, 3}}, 4);
  Rng rng(5), replay(5);
  for (int i = 0; i < 2000; ++i) {
    std::vector<std::int64_t> active;
    for (int s = 0; s < 4; ++s) active.push_back(balancer.active(s));
    const auto first = static_cast<int>(replay.below(4)), second = static_cast<int>(replay.below(4));
    const int expected =
        active[static_cast<std::size_t>(second)] < active[static_cast<std::size_t>(first)] ? second : first;
    REQUIRE(balancer.pick(0, 0, &rng) == expected);
    if (i % 3 == 0) balancer.answered(expected);  // requests stay active unevenly
  }
}
