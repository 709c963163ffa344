// The scenario keys of variability: a kernel latency's "spread" (and a calibrated file's), a server
// group's "kernel_overlap" (or "kernel_sharing" by occupancy), perf_analyzer's client send and receive times as
// distributions; what each reads as, and that each bad value is an error naming its JSON pointer.
#include <doctest/doctest.h>

#include "models/io/input_error.hpp"
#include "tests/support/input_failure.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

json with_spread(const json& spread) {
  json d = test::base_scenario();
  d["models"]["m"]["kernel_latency"]["spread"] = spread;
  return d;
}

// A latency model file with a table form and, where given, a spread.
std::string model_file(const std::string& name, const json& spread) {
  json file = {
      {"format", "sonicsim latency model v1"},
      {"selected", "table"},
      {"forms",
       {{"table", {{"points", {{{"batch", 1}, {"latency_s", 1e-3}}, {{"batch", 64}, {"latency_s", 4e-3}}}}}}}}};
  if (!spread.is_null()) file["spread"] = spread;
  return test::write_scratch_file(name, file.dump());
}

}  // namespace

TEST_CASE("no spread: every device type's kernels are deterministic, as before") {
  const Scenario s = test::parse(test::base_scenario());
  CHECK(s.models[0].spread_for("T4") == nullptr);
  CHECK_FALSE(s.platform.servers[0].kernel_overlap.has_value());
}

TEST_CASE("a spread is one cv for every batch size, or a cv per batch size, with its distribution") {
  const Scenario one = test::parse(with_spread({{"distribution", "lognormal"}, {"cv", 0.05}}));
  const KernelSpread* spread = one.models[0].spread_for("T4");
  REQUIRE(spread != nullptr);
  CHECK(spread->shape == SpreadShape::Lognormal);
  CHECK(spread_cv(*spread, 1) == 0.05);
  CHECK(spread_cv(*spread, 1000) == 0.05);

  const Scenario table = test::parse(
      with_spread({{"distribution", "gamma"}, {"cv", {{{"batch", 1}, {"cv", 0.2}}, {{"batch", 256}, {"cv", 0.01}}}}}));
  spread = table.models[0].spread_for("T4");
  REQUIRE(spread != nullptr);
  CHECK(spread->shape == SpreadShape::Gamma);
  CHECK(spread->cv_points == std::vector<std::pair<double, double>>{{1, 0.2}, {256, 0.01}});

  CHECK(test::parse(with_spread("none")).models[0].spread_for("T4") == nullptr);
}

TEST_CASE("a device type's own latency brings its own spread, or none") {
  json d = with_spread({{"distribution", "lognormal"}, {"cv", 0.1}});
  d["models"]["m"]["kernel_latency_by_gpu"] = {
      {"A100", {{"type", "affine"}, {"intercept", "1ms"}, {"per_item", "1us"}}},
      {"H100",
       {{"type", "affine"},
        {"intercept", "1ms"},
        {"per_item", "1us"},
        {"spread", {{"distribution", "gamma"}, {"cv", 0.3}}}}}};
  const ModelSpec m = test::parse(d).models[0];
  CHECK(m.spread_for("T4")->shape == SpreadShape::Lognormal);  // the default latency's
  CHECK(m.spread_for("A100") == nullptr);                      // its own latency has none
  CHECK(m.spread_for("H100")->shape == SpreadShape::Gamma);
}

TEST_CASE("a calibrated latency takes its file's spread unless the scenario gives one or \"none\"") {
  const std::string with =
      model_file("with-spread.json", {{"distribution", "gamma"},
                                      {"method", "test"},
                                      {"points", {{{"batch", 1}, {"cv", 0.3}}, {{"batch", 64}, {"cv", 0.1}}}}});
  const std::string without = model_file("without-spread.json", nullptr);
  json d = test::base_scenario();
  d["models"]["m"]["kernel_latency"] = {{"type", "calibrated"}, {"file", with}};
  const Scenario calibrated = test::parse(d);
  const KernelSpread* spread = calibrated.models[0].spread_for("T4");
  REQUIRE(spread != nullptr);
  CHECK(spread->shape == SpreadShape::Gamma);
  CHECK(spread->cv_points == std::vector<std::pair<double, double>>{{1, 0.3}, {64, 0.1}});

  d["models"]["m"]["kernel_latency"]["spread"] = "none";
  CHECK(test::parse(d).models[0].spread_for("T4") == nullptr);
  d["models"]["m"]["kernel_latency"]["spread"] = {{"distribution", "lognormal"}, {"cv", 0.02}};
  const Scenario overridden = test::parse(d);
  CHECK(overridden.models[0].spread_for("T4")->cv_points == std::vector<std::pair<double, double>>{{1, 0.02}});
  d["models"]["m"]["kernel_latency"] = {{"type", "calibrated"}, {"file", without}};
  CHECK(test::parse(d).models[0].spread_for("T4") == nullptr);
}

TEST_CASE("bad spreads are errors naming their pointer") {
  const auto where = [](const json& spread) { return test::failure_of([&] { test::parse(with_spread(spread)); }); };
  const test::Failure shape = where({{"distribution", "weibull"}, {"cv", 0.1}});
  CHECK(shape.where == "/models/m/kernel_latency/spread/distribution");
  CHECK(shape.message == "expected \"lognormal\" or \"gamma\", got \"weibull\"");
  CHECK(where({{"distribution", "gamma"}, {"cv", -0.1}}).where == "/models/m/kernel_latency/spread/cv");
  CHECK(where({{"distribution", "gamma"}, {"cv", 11}}).message == "expected a number from 0.0 to 10.0, got 11");
  CHECK(where({{"distribution", "gamma"}, {"cv", "5%"}}).where == "/models/m/kernel_latency/spread/cv");
  CHECK(where({{"distribution", "gamma"}}).message.find("\"cv\"") != std::string::npos);
  CHECK(where({{"distribution", "gamma"}, {"cv", 0.1}, {"stddev", 1}}).where ==
        "/models/m/kernel_latency/spread/stddev");
  CHECK(where({{"distribution", "gamma"}, {"cv", {{{"batch", 8}, {"cv", 0.1}}, {{"batch", 4}, {"cv", 0.1}}}}}).where ==
        "/models/m/kernel_latency/spread/cv/1/batch");
  CHECK(where({{"distribution", "gamma"}, {"cv", json::array()}}).where == "/models/m/kernel_latency/spread/cv");
  CHECK(where("some").message ==
        "expected \"none\" (or a spread object {\"distribution\": ..., \"cv\": ...}), got \"some\"");
  CHECK(where(0.1).where == "/models/m/kernel_latency/spread");
}

TEST_CASE("a bad spread in a latency model file names the file and its pointer") {
  const std::string bad =
      model_file("bad-spread.json", {{"distribution", "lognormal"}, {"points", {{{"batch", 1}, {"cv", -1}}}}});
  json d = test::base_scenario();
  d["models"]["m"]["kernel_latency"] = {{"type", "calibrated"}, {"file", bad}};
  const test::Failure f = test::failure_of([&] { test::parse(d); });
  CHECK(f.file == bad);
  CHECK(f.where == "/spread/points/0/cv");
}

TEST_CASE("kernel_overlap is a fraction from 0 to 1 of a server group") {
  json d = test::base_scenario();
  d["platform"]["servers"][0]["kernel_overlap"] = 0.25;
  CHECK(test::parse(d).platform.servers[0].kernel_overlap == 0.25);
  for (const json& bad : {json(1.5), json(-0.1), json("50%")}) {
    d["platform"]["servers"][0]["kernel_overlap"] = bad;
    CHECK(test::failure_of([&] { test::parse(d); }).where == "/platform/servers/0/kernel_overlap");
  }
}

TEST_CASE("kernel_sharing is time-slicing or occupancy; an interference cost goes with occupancy only") {
  json d = test::base_scenario();
  CHECK(test::parse(d).platform.servers[0].kernel_sharing == KernelSharing::TimeSlicing);
  d["platform"]["servers"][0]["kernel_sharing"] = "occupancy";
  CHECK(test::parse(d).platform.servers[0].kernel_sharing == KernelSharing::Occupancy);
  CHECK(test::parse(d).platform.servers[0].kernel_interference == 0);
  d["platform"]["servers"][0]["kernel_interference"] = 0.04;
  CHECK(test::parse(d).platform.servers[0].kernel_interference == 0.04);
  d["platform"]["servers"][0]["kernel_interference"] = -0.01;
  CHECK(test::failure_of([&] { test::parse(d); }).where == "/platform/servers/0/kernel_interference");

  json time_sliced = test::base_scenario();
  time_sliced["platform"]["servers"][0]["kernel_interference"] = 0.04;
  const test::Failure alone = test::failure_of([&] { test::parse(time_sliced); });
  CHECK(alone.where == "/platform/servers/0/kernel_interference");
  CHECK(alone.message.find("\"kernel_sharing\": \"occupancy\"") != std::string::npos);

  json both = test::base_scenario();
  both["platform"]["servers"][0]["kernel_overlap"] = 0.5;
  both["platform"]["servers"][0]["kernel_sharing"] = "occupancy";
  const test::Failure twice = test::failure_of([&] { test::parse(both); });
  CHECK(twice.where == "/platform/servers/0/kernel_sharing");
  CHECK(twice.message.find("expected one of the two") != std::string::npos);

  json unknown = test::base_scenario();
  unknown["platform"]["servers"][0]["kernel_sharing"] = "mps";
  const test::Failure f = test::failure_of([&] { test::parse(unknown); });
  CHECK(f.where == "/platform/servers/0/kernel_sharing");
  CHECK(f.message.find("expected \"time_slicing\" or \"occupancy\"") != std::string::npos);
}

TEST_CASE("perf_analyzer's client send and receive times are durations or distributions") {
  json d = test::base_scenario();
  d.erase("workload");
  d["perf_analyzer"] = {{"model", "m"},
                        {"concurrency", {1}},
                        {"client_send", "20us"},
                        {"client_recv", {{"distribution", "lognormal"}, {"mean", "10us"}, {"stddev", "5us"}}}};
  const Scenario s = test::parse(d);
  CHECK(std::get<ConstantDist>(s.perf_analyzer->client_send).value == doctest::Approx(20e-6));
  CHECK(std::get<LognormalDist>(s.perf_analyzer->client_recv).stddev == doctest::Approx(5e-6));
  d["perf_analyzer"]["client_send"] = {{"distribution", "exponential"}, {"mean", "0s"}};
  CHECK(test::failure_of([&] { test::parse(d); }).where == "/perf_analyzer/client_send/mean");
}

TEST_CASE("kernel_switch_cost is a duration of at least 0 with any sharing; absent, 0") {
  json d = test::base_scenario();
  CHECK(test::parse(d).platform.servers[0].kernel_switch_cost_s == 0);
  d["platform"]["servers"][0]["kernel_switch_cost"] = "220us";
  CHECK(test::parse(d).platform.servers[0].kernel_switch_cost_s == doctest::Approx(220e-6));
  d["platform"]["servers"][0]["kernel_sharing"] = "occupancy";
  CHECK(test::parse(d).platform.servers[0].kernel_switch_cost_s == doctest::Approx(220e-6));
  for (const json& bad : {json("-1ms"), json(0.2), json("fast")}) {
    d["platform"]["servers"][0]["kernel_switch_cost"] = bad;
    CHECK(test::failure_of([&] { test::parse(d); }).where == "/platform/servers/0/kernel_switch_cost");
  }
}
