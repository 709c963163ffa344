// A scenario that names its accelerators "device" gets outputs that say "device"; one written with
// the GPU names keeps "gpu" everywhere, with the same numbers.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "analysis/outputs/result_writers.hpp"
#include "analysis/outputs/sweep_table.hpp"
#include "analysis/stats/steady_estimates.hpp"
#include "analysis/summary/summary.hpp"
#include "analysis/summary/summary_json.hpp"
#include "analysis/summary/summary_text.hpp"
#include "models/closed_form/analytic.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

TEST_CASE("outputs name the accelerators as the scenario does, with the same numbers") {
  json gpu_document = test::base_scenario();
  gpu_document["workload"]["events_per_job"] = 20;
  const Scenario gpu_named = test::parse(gpu_document),
                 device_named = test::parse(test::with_device_names(gpu_document));
  SimulationResults a = test::simulate_isolated(gpu_named), b = test::simulate_isolated(device_named);
  const Summary sa = summarize(a), sb = summarize(b);
  const json ja = summary_to_json(sa), jb = summary_to_json(sb);

  CHECK(ja.contains("gpu"));
  CHECK_FALSE(ja.contains("device"));
  REQUIRE(jb.contains("device"));
  CHECK_FALSE(jb.contains("gpu"));
  CHECK(jb["device"]["utilization"] == ja["gpu"]["utilization"]);
  CHECK(jb["device"]["utilization"].get<double>() > 0);
  CHECK(jb["device"]["per_device"][0]["device"] == 0);
  CHECK(jb["events"]["breakdown_mean_s"]["device"] == ja["events"]["breakdown_mean_s"]["gpu"]);
  CHECK(summary_from_json(ja).device_naming == DeviceNaming::Gpu);
  CHECK(summary_from_json(jb).device_naming == DeviceNaming::Device);

  const std::size_t batch = min_batch_events(1);
  const std::string text = format_summary(sb, batch);
  CHECK(text.find("Device utilisation") != std::string::npos);
  CHECK(text.find("GPU") == std::string::npos);
  CHECK(format_summary(sa, batch).find("GPU utilisation") != std::string::npos);

  write_batches_csv("device_naming_batches.csv", b);
  CHECK(first_line("device_naming_batches.csv") ==
        "batch,server,model,instance,device,requests,items,start_s,end_s,kernel_s");
  write_events_csv("device_naming_events.csv", b);
  CHECK(first_line("device_naming_events.csv").find(",queue_s,device_s,requests,") != std::string::npos);
  std::remove("device_naming_batches.csv");
  std::remove("device_naming_events.csv");

  const std::string sweep = sweep_csv({"/workload/jobs"}, {{{"1"}, sb, ""}});
  CHECK(sweep.find(",device_mean_s,") != std::string::npos);
  CHECK(sweep.find(",device_utilization,") != std::string::npos);
  CHECK(sweep.find("gpu") == std::string::npos);

  CHECK(describe_saturation(analytic_model(device_named)).rfind("Devices saturate at", 0) == 0);
  CHECK(describe_saturation(analytic_model(gpu_named)).rfind("GPUs saturate at", 0) == 0);
  AnalyticModel busy_devices;  // 1 s of device time per event on one device: 10 jobs saturate it
  busy_devices.gpu_s = 1;
  busy_devices.gpus = 1;
  busy_devices.device_naming = DeviceNaming::Device;
  const AnalyticPrediction p = analytic_prediction(busy_devices, 10);
  CHECK(p.regime == "device-saturated");
  CHECK(p.limit == "device");
}
