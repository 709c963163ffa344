// A server's accelerator may be any device (GPU, FPGA, IPU). A scenario that names it "device"
// gets outputs that say "device"; one written with the GPU names keeps "gpu" everywhere.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "analysis/outputs/result_writers.hpp"
#include "analysis/outputs/sweep_table.hpp"
#include "analysis/summary/summary.hpp"
#include "models/closed_form/analytic.hpp"
#include "tests/support/support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

json with_device_names(json d) {
  auto& group = d["platform"]["servers"][0];
  group["device"] = "U250";
  group["devices_per_server"] = group["gpus_per_server"];
  group.erase("gpu");
  group.erase("gpus_per_server");
  auto& model = d["models"]["m"];
  model["instances_per_device"] = model["instances_per_gpu"];
  model.erase("instances_per_gpu");
  return d;
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

TEST_CASE("the scenario's naming: the GPU names, the device names, or neither, never both") {
  CHECK(test::parse(test::base_scenario()).device_naming == DeviceNaming::Gpu);
  CHECK(test::parse(with_device_names(test::base_scenario())).device_naming == DeviceNaming::Device);

  json mixed = with_device_names(test::base_scenario());
  mixed["models"]["m"]["instances_per_gpu"] = 1;
  mixed["models"]["m"].erase("instances_per_device");
  CHECK(test::input_error_of([&] { test::parse(mixed); })
            .find("/models/m/instances_per_gpu: this scenario names its accelerators with the device names "
                  "(/platform/servers/0/device)") != std::string::npos);
  json priced = with_device_names(test::base_scenario());
  priced["costs"] = {{"currency", "EUR"}, {"cpu_core_hour", 0.01}, {"gpu_hour", 0.5}};
  CHECK(test::input_error_of([&] { test::parse(priced); }).find("/costs/gpu_hour: this scenario names") !=
        std::string::npos);
  priced["costs"].erase("gpu_hour");
  priced["costs"]["device_hour"] = 0.5;
  CHECK(test::parse(priced).costs->gpu_hour == 0.5);
}

TEST_CASE("outputs name the accelerators as the scenario does, with the same numbers") {
  json gpu_document = test::base_scenario();
  gpu_document["workload"]["events_per_job"] = 20;
  const Scenario gpu_named = test::parse(gpu_document), device_named = test::parse(with_device_names(gpu_document));
  SimulationResults a = test::simulate_isolated(gpu_named), b = test::simulate_isolated(device_named);
  const json ja = summary_to_json(summarize(a)), jb = summary_to_json(summarize(b));

  CHECK(ja.contains("gpu"));
  CHECK_FALSE(ja.contains("device"));
  REQUIRE(jb.contains("device"));
  CHECK_FALSE(jb.contains("gpu"));
  CHECK(jb["device"]["utilization"] == ja["gpu"]["utilization"]);
  CHECK(jb["device"]["utilization"].get<double>() > 0);
  CHECK(jb["device"]["per_device"][0]["device"] == 0);
  CHECK(jb["events"]["breakdown_mean_s"]["device"] == ja["events"]["breakdown_mean_s"]["gpu"]);
  CHECK(device_words_of(ja).key == std::string("gpu"));
  CHECK(device_words_of(jb).key == std::string("device"));

  const std::string text = format_summary(summarize(b));
  CHECK(text.find("Device utilisation") != std::string::npos);
  CHECK(text.find("GPU") == std::string::npos);
  CHECK(format_summary(summarize(a)).find("GPU utilisation") != std::string::npos);

  write_batches_csv("device_naming_batches.csv", b);
  CHECK(first_line("device_naming_batches.csv") == "batch,server,model,instance,device,requests,items,start_s,end_s,kernel_s");
  write_events_csv("device_naming_events.csv", b);
  CHECK(first_line("device_naming_events.csv").find(",queue_s,device_s,requests,") != std::string::npos);
  std::remove("device_naming_batches.csv");
  std::remove("device_naming_events.csv");

  const std::string sweep = sweep_csv({"/workload/jobs"}, {{{"1"}, jb, ""}});
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
