// Items per event as a distribution (jets per event): the draws against their closed forms and the
// closed-form model's expectations over them.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "models/closed_form/analytic.hpp"
#include "models/workload/item_count.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("count distributions: probabilities, means and draws against their closed forms") {
  // Poisson(3.5): P(k) = e^-3.5 3.5^k / k!; the cut tail is below 1e-15.
  const auto poisson = probabilities(ItemCount{PoissonCount{3.5}});
  double total = 0, first_moment = 0;
  for (const auto& [k, p] : poisson) total += p, first_moment += k * p;
  CHECK(total == doctest::Approx(1.0).epsilon(1e-14));
  CHECK(first_moment == doctest::Approx(3.5).epsilon(1e-12));
  CHECK(poisson[2].second == doctest::Approx(std::exp(-3.5) * 3.5 * 3.5 / 2).epsilon(1e-12));
  CHECK(largest(ItemCount{PoissonCount{3.5}}) == poisson.back().first);
  CHECK(poisson.back().first < 40);

  const auto uniform = probabilities(ItemCount{UniformCount{0, 3}});
  REQUIRE(uniform.size() == 4);
  CHECK(uniform[0] == std::pair<int, double>{0, 0.25});
  const auto empirical = probabilities(ItemCount{EmpiricalCount{{5, 2, 5, 9}}});
  CHECK(empirical == std::vector<std::pair<int, double>>{{2, 0.25}, {5, 0.5}, {9, 0.25}});
  CHECK(mean(ItemCount{EmpiricalCount{{5, 2, 5, 9}}}) == 5.25);

  // 200,000 Poisson(3.5) draws: the sample mean within 5 standard errors (sqrt(3.5 / n)) of 3.5,
  // and the frequency of 2 within 5 standard errors of P(2).
  Rng rng(11);
  const int n = 200'000;
  double sum = 0;
  std::map<int, int> seen;
  for (int i = 0; i < n; ++i) {
    const int k = sample(ItemCount{PoissonCount{3.5}}, rng);
    sum += k;
    ++seen[k];
  }
  CHECK(std::abs(sum / n - 3.5) < 5 * std::sqrt(3.5 / n));
  const double p2 = poisson[2].second;
  CHECK(std::abs(seen[2] / double(n) - p2) < 5 * std::sqrt(p2 * (1 - p2) / n));
  // A fixed count draws nothing: the stream is where it was.
  Rng a(5), b(5);
  CHECK(sample(ItemCount{7}, a) == 7);
  CHECK(a.uniform() == b.uniform());
}

TEST_CASE("the closed form takes expectations over the items an event brings") {
  // Uniform 0..3 items in requests of at most 2: events of 0, 1, 2, 3 items send 0, 1, 1, 2
  // requests (1 on average) of sizes {}, {1}, {2}, {2, 1}. tau = 1 ms + 10 us per item.
  json d = test::base_scenario();
  d["workload"]["modules"][1]["items_per_event"] = {{"distribution", "uniform"}, {"min", 0}, {"max", 3}};
  d["workload"]["modules"][1]["items_per_request"] = 2;
  const AnalyticModel m = analytic_model(test::parse(d));
  const auto tau = [](int items) { return 1e-3 + 10e-6 * items; };
  CHECK(m.requests_per_event == doctest::Approx(1.0));
  CHECK(m.gpu_s == doctest::Approx((tau(1) + tau(2) + tau(2) + tau(1)) / 4));
  // Bytes follow the mean of 1.5 items: 1.5 x 4400 B over the 1 Gbps narrowest link.
  CHECK(m.transfer_s == doctest::Approx(1.5 * 4400 / (1e9 / 8)));
  CHECK(m.round_trips_s == doctest::Approx(1.0 * 2 * 1.12e-3));
}

TEST_CASE("items_per_event distributions refuse what they cannot draw") {
  const auto error_with = [](const json& items) {
    json d = test::base_scenario();
    d["workload"]["modules"][1]["items_per_event"] = items;
    return test::input_error_of([&] { test::parse(d); });
  };
  CHECK(error_with({{"distribution", "poisson"}, {"mean", 0}})
            .find("/workload/modules/1/items_per_event/mean: expected a mean above 0") != std::string::npos);
  CHECK(error_with({{"distribution", "poisson"}, {"mean", 1e6}}).find("at most 10000") != std::string::npos);
  CHECK(error_with({{"distribution", "uniform"}, {"min", 5}, {"max", 2}}).find("expected max at least min (5)") !=
        std::string::npos);
  CHECK(error_with({{"distribution", "empirical"}, {"samples", {0, 0}}}).find("at least one sample above 0") !=
        std::string::npos);
  CHECK(error_with({{"distribution", "geometric"}})
            .find("expected \"constant\", \"poisson\", \"uniform\" or \"empirical\" (a count of items per event), got "
                  "\"geometric\"") != std::string::npos);
  CHECK(error_with("ten").find("expected a positive integer or a count distribution object") != std::string::npos);
}
