// The design of runs over declared unknowns: a Latin hypercube puts one point in each of n equal
// strata of every unknown; few alternatives make a full factorial with the same points per cell;
// the same seed and batch give the same points, another batch other points.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "models/scenario/unknowns/unknowns_design.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

std::vector<DeclaredUnknown> unknowns_of(const char* text) {
  return find_declared_unknowns(json::parse(text), "s.json");
}

}  // namespace

TEST_CASE("a Latin hypercube has one point in each stratum of every unknown") {
  const auto unknowns =
      unknowns_of(R"({"a": {"between": [0, 1]}, "b": {"between": [5, 6]}, "c": {"between": [1, 9]}})");
  for (std::size_t n : {1u, 7u, 40u}) {
    const std::vector<DesignPoint> design = design_batch(unknowns, n, 42, 0);
    REQUIRE(design.size() == n);
    for (std::size_t u = 0; u < unknowns.size(); ++u) {
      std::set<std::size_t> strata;
      for (const DesignPoint& p : design) {
        REQUIRE(p[u] >= 0.0);
        REQUIRE(p[u] < 1.0);
        strata.insert(static_cast<std::size_t>(p[u] * static_cast<double>(n)));
      }
      CHECK(strata.size() == n);
    }
  }
}

TEST_CASE("the same seed and batch give the same points; another batch or seed, others") {
  const auto unknowns = unknowns_of(R"({"a": {"between": [0, 1]}, "b": {"between": [0, 1]}})");
  CHECK(design_batch(unknowns, 10, 1, 0) == design_batch(unknowns, 10, 1, 0));
  CHECK(design_batch(unknowns, 10, 1, 0) != design_batch(unknowns, 10, 1, 1));
  CHECK(design_batch(unknowns, 10, 1, 0) != design_batch(unknowns, 10, 2, 0));
}

TEST_CASE("few alternatives: every combination the same number of times, a Latin hypercube of the ranges in each") {
  const auto unknowns =
      unknowns_of(R"({"a": {"one_of": [1, 2]}, "b": {"between": [0, 1]}, "c": {"one_of": ["x", "y", "z"]}})");
  REQUIRE(factorial_cells(unknowns) == 6);
  CHECK(design_batch_size(unknowns) == 12);  // 10 points, rounded up to whole cells of 6
  const std::vector<DesignPoint> design = design_batch(unknowns, 12, 3, 0);
  REQUIRE(design.size() == 12);
  std::map<std::pair<json, json>, std::vector<double>> cells;
  for (const DesignPoint& p : design) cells[{unknowns[0].value_at(p[0]), unknowns[2].value_at(p[2])}].push_back(p[1]);
  CHECK(cells.size() == 6);
  for (const auto& [cell, range_draws] : cells) {
    REQUIRE(range_draws.size() == 2);
    // Two points: one in each half of the range.
    CHECK((range_draws[0] < 0.5) != (range_draws[1] < 0.5));
  }
}

TEST_CASE("too many combinations: a Latin hypercube over the alternatives too") {
  const auto unknowns = unknowns_of(R"({"a": {"one_of": [1, 2, 3, 4, 5]}, "b": {"one_of": [1, 2, 3, 4]}})");
  CHECK(factorial_cells(unknowns) == 0);
  CHECK(design_batch_size(unknowns) == 10);
  const std::vector<DesignPoint> design = design_batch(unknowns, 10, 5, 0);
  std::map<json, int> a;
  for (const DesignPoint& p : design) ++a[unknowns[0].value_at(p[0])];
  for (const auto& [value, count] : a) CHECK(count == 2);  // 10 strata over 5 equal shares
}

TEST_CASE("a batch has at least 10 points and two per unknown") {
  std::string text = "{";
  for (int i = 0; i < 8; ++i) {
    if (i) text += ",";
    text += "\"k" + std::to_string(i) + "\": {\"between\": [0, 1]}";
  }
  text += "}";
  CHECK(design_batch_size(unknowns_of(text.c_str())) == 16);
  CHECK(design_batch_size(unknowns_of(R"({"a": {"between": [0, 1]}})")) == 10);
}
