// Items per event as a distribution (jets per event): each event draws its items once, and its
// requests split them.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("each event draws its items once; its requests split them, full but the last") {
  json d = test::base_scenario();
  d["workload"]["events_per_job"] = 400;
  d["workload"]["modules"][1]["items_per_event"] = {{"distribution", "poisson"}, {"mean", 6.5}};
  d["workload"]["modules"][1]["items_per_request"] = 4;
  d["simulation"]["outputs"] = {"requests", "events"};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  std::map<int, std::vector<const RequestRecord*>> by_event;
  for (const RequestRecord& q : r.requests) by_event[q.event].push_back(&q);
  double items_total = 0, bytes_total = 0;
  bool split_right = true;
  for (const auto& [event, requests] : by_event) {
    int items = 0;
    for (std::size_t k = 0; k < requests.size(); ++k) {
      items += requests[k]->items;
      bytes_total += requests[k]->input_bytes;
      if (requests[k]->input_bytes != requests[k]->items * 4000.0) split_right = false;
      if (k + 1 < requests.size() && requests[k]->items != 4) split_right = false;
    }
    if (static_cast<std::int64_t>(requests.size()) != (items + 3) / 4 || requests.back()->items < 1)
      split_right = false;
    items_total += items;
  }
  CHECK(split_right);
  CHECK(r.events.size() == 400);
  // Events without items send nothing: P(0) = e^-6.5 = 0.15%, so about 0.6 of 400 events.
  CHECK(by_event.size() <= 400);
  CHECK(by_event.size() >= 390);
  // Mean items (and bytes) per event: 6.5 (26,000 B) within 5 standard errors sqrt(6.5 / 400).
  CHECK(std::abs(items_total / 400 - 6.5) < 5 * std::sqrt(6.5 / 400));
  CHECK(bytes_total == items_total * 4000);
}
