// Triton's batching of requests whose items vary in size: padded (a variable dim without
// allow_ragged_batch: one shape per batch) and ragged (any sizes per batch, unpadded); the kernel's
// time is a function of the elements in the batch.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/records.hpp"
#include "models/closed_form/analytic.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

constexpr double kHeaderBytes = 2 * 4, kPointBytes = 8 * 4;
double elements_of(const RequestRecord& r) { return (r.input_bytes - r.items * kHeaderBytes) / kPointBytes; }

// Per executed batch: its requests' element counts, and its kernel time.
std::map<std::int64_t, std::pair<std::vector<double>, double>> batches_of(const SimulationResults& r) {
  std::map<std::int64_t, std::pair<std::vector<double>, double>> out;
  for (const BatchRecord& b : r.batches) out[b.id].second = b.end_s - b.start_s;
  for (const RequestRecord& q : r.requests)
    if (q.batch >= 0) out[q.batch].first.push_back(elements_of(q));
  return out;
}

}  // namespace

TEST_CASE("ragged: requests of any element counts batch together, and the kernel takes the elements' sum") {
  const SimulationResults r = test::simulate_isolated(test::parse(test::point_cloud_scenario(true)));
  const auto batches = batches_of(r);
  REQUIRE(!batches.empty());
  bool mixed = false, timed_by_elements = true;
  for (const auto& [id, batch] : batches) {
    const auto& [elements, kernel_s] = batch;
    double sum = 0;
    for (double e : elements) sum += e;
    if (std::abs(kernel_s - (1e-3 + 10e-6 * sum)) > 1e-9) timed_by_elements = false;
    if (std::set<double>(elements.begin(), elements.end()).size() > 1) mixed = true;
  }
  CHECK(timed_by_elements);
  CHECK(mixed);
  // Unpadded: each request carries its own points, 10, 20 or 40 of them.
  for (const RequestRecord& q : r.requests) CHECK(std::set<double>{10, 20, 40}.count(elements_of(q)) == 1);
  CHECK(r.requests.size() == 200);
}

TEST_CASE("padded: a batch holds one shape; the kernel takes the padded elements") {
  json d = test::point_cloud_scenario(false);
  d["workload"]["modules"][1]["items_per_request"] = 2;
  d["workload"]["modules"][1]["items_per_event"] = 2;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  // A request of 2 items pads both to the larger: 2 x max(e1, e2) elements, a multiple of 2 x 10.
  std::set<double> shapes;
  for (const RequestRecord& q : r.requests) {
    const double per_item = elements_of(q) / q.items;
    CHECK(std::set<double>{10, 20, 40}.count(per_item) == 1);
    shapes.insert(per_item);
  }
  CHECK(shapes.size() == 3);
  bool one_shape = true, timed_by_elements = true;
  std::size_t largest_batch = 0;
  for (const auto& [id, batch] : batches_of(r)) {
    const auto& [elements, kernel_s] = batch;
    largest_batch = std::max(largest_batch, elements.size());
    double sum = 0;
    for (double e : elements) sum += e;
    if (std::set<double>(elements.begin(), elements.end()).size() != 1) one_shape = false;
    if (std::abs(kernel_s - (1e-3 + 10e-6 * sum)) > 1e-9) timed_by_elements = false;
  }
  CHECK(one_shape);
  CHECK(largest_batch >= 2);  // requests of one shape did batch
  CHECK(timed_by_elements);
  // The closed form: P(max of 2 <= m) = F(m)^2 with F = 1/3, 2/3, 1, so the padded shape is 10, 20,
  // 40 with probabilities 1/9, 3/9, 5/9; elements per request 2 E[M] = 2 (10 + 60 + 200) / 9.
  const AnalyticModel m = analytic_model(test::parse(d));
  const double mean_elements = 2 * (10 * 1.0 + 20 * 3.0 + 40 * 5.0) / 9;
  CHECK(m.gpu_s == doctest::Approx(1e-3 + 10e-6 * mean_elements));
  CHECK(m.transfer_s == doctest::Approx((2 * kHeaderBytes + kPointBytes * mean_elements + 2 * 12) / (1e9 / 8)));
}
