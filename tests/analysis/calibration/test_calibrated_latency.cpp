// The latency model file round trip (calibrate -> file -> scenario) and the latency quantile.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

#include "analysis/calibration/calibration_report.hpp"
#include "models/io/input_error.hpp"
#include "models/workload/latency_model_file.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using namespace sonicsim::calibration;

namespace {

const char* const kModelPath = "calibrated_latency_test.json";

// Affine truth 0.5 ms + 20 us/item, three points with standard errors, bootstrapped.
Calibration example_calibration() {
  std::vector<LatencyPoint> points;
  for (double b : {1.0, 8.0, 64.0, 512.0})
    points.push_back({b, 0.5e-3 + 20e-6 * b, 0.03 * (0.5e-3 + 20e-6 * b), "x.csv", {}});
  points[1].latency_s *= 1.02;
  BootstrapSettings settings;
  settings.resamples = 200;
  return calibrate({CalibrationInput{"x.csv", "synthetic", {{"device", "none"}}, points}}, LatencyStatistic::Mean,
                   LatencyForm::Affine, settings);
}

void write_model(const Calibration& c) { std::ofstream(kModelPath) << latency_model_json(c, "test").dump(2); }

nlohmann::json scenario_with(const nlohmann::json& kernel_latency) {
  nlohmann::json d = test::base_scenario();
  d["models"]["m"]["kernel_latency"] = kernel_latency;
  return d;
}

std::string calibration_error_of(const nlohmann::json& document) {
  try {
    test::parse(document);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a written latency model reads back with the same curves and bands") {
  const Calibration c = example_calibration();
  write_model(c);
  const LatencyModelFile file = read_latency_model_file(kModelPath);
  CHECK(file.selected == "affine");
  REQUIRE(file.forms.size() == 3);
  for (const FittedForm& fitted : c.forms) {
    const CalibratedForm& read = file.forms.at(form_name(fitted.form));
    for (double b : {1.0, 3.0, 64.0, 1000.0})
      CHECK(kernel_latency_s(read.curve, b) == kernel_latency_s(fitted.curve, b));
    REQUIRE(read.band.has_value());
    CHECK(read.band->levels == fitted.band->levels);
    CHECK(read.band->batches == fitted.band->batches);
    CHECK(read.band->latency_s == fitted.band->latency_s);
  }
  std::remove(kModelPath);
}

TEST_CASE("a band quantile is a stored row at a stored level and interpolates linearly between levels") {
  const LatencyBand band{{0.25, 0.5, 0.75}, {1, 2}, {{1e-3, 2e-3}, {2e-3, 3e-3}, {4e-3, 5e-3}}};
  const TableLatency median = band_quantile(band, 0.5);
  CHECK(median.points == std::vector<std::pair<double, double>>{{1, 2e-3}, {2, 3e-3}});
  CHECK(band_quantile(band, 0.625).points[1].second == doctest::Approx(4e-3));
  CHECK(band_quantile(band, 0.75).points[0].second == 4e-3);
  CHECK(band_quantile(band, 0.25).points[0].second == 1e-3);
}

TEST_CASE("a scenario's calibrated kernel latency is the selected or named form, or a band quantile") {
  const Calibration c = example_calibration();
  write_model(c);
  const auto affine = std::get<AffineLatency>(c.forms[1].curve);

  const Scenario selected = test::parse(scenario_with({{"type", "calibrated"}, {"file", kModelPath}}));
  CHECK(kernel_latency_s(selected.models[0].latency_for("gpu"), 100) == affine.intercept_s + 100 * affine.per_item_s);

  const Scenario knee = test::parse(scenario_with({{"type", "calibrated"}, {"file", kModelPath}, {"form", "knee"}}));
  CHECK(std::holds_alternative<KneeLatency>(knee.models[0].latency_for("gpu")));

  nlohmann::json pessimistic = scenario_with({{"type", "calibrated"}, {"file", kModelPath}});
  pessimistic["simulation"]["latency_quantile"] = 0.975;
  const Scenario high = test::parse(pessimistic);
  const LatencyBand& band = *c.forms[1].band;
  const std::size_t level = 9;  // 0.975
  REQUIRE(band.levels[level] == 0.975);
  for (std::size_t i = 0; i < band.batches.size(); ++i)
    CHECK(kernel_latency_s(high.models[0].latency_for("gpu"), band.batches[i]) == band.latency_s[level][i]);
  CHECK(kernel_latency_s(high.models[0].latency_for("gpu"), 64) >
        kernel_latency_s(selected.models[0].latency_for("gpu"), 64));
  std::remove(kModelPath);
}

TEST_CASE("calibrated latency errors name the JSON path and what was expected") {
  write_model(example_calibration());
  CHECK(calibration_error_of(scenario_with({{"type", "calibrated"}, {"file", "no_such_model.json"}}))
            .find("/models/m/kernel_latency/file: cannot open the latency model file \"no_such_model.json\"") !=
        std::string::npos);
  CHECK(calibration_error_of(scenario_with({{"type", "calibrated"}, {"file", kModelPath}, {"form", "cubic"}}))
            .find("/models/m/kernel_latency/form: expected one of the forms") != std::string::npos);
  nlohmann::json outside = scenario_with({{"type", "calibrated"}, {"file", kModelPath}});
  outside["simulation"]["latency_quantile"] = 0.999;
  CHECK(calibration_error_of(outside).find("outside the levels") != std::string::npos);
  nlohmann::json unused = test::base_scenario();
  unused["simulation"]["latency_quantile"] = 0.5;
  CHECK(calibration_error_of(unused).find(
            "/simulation/latency_quantile: expected a model with a \"calibrated\" kernel_latency") !=
        std::string::npos);
  std::ofstream("not_a_model.json") << R"({"format": "something else"})";
  CHECK(calibration_error_of(scenario_with({{"type", "calibrated"}, {"file", "not_a_model.json"}}))
            .find("not_a_model.json: /format: expected \"sonicsim latency model v1\"") != std::string::npos);
  std::remove("not_a_model.json");
  std::remove(kModelPath);
}
