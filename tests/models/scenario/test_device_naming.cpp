// A server's accelerator may be any device (GPU, FPGA, IPU): a scenario names it the GPU way or the
// device way, never both.
#include <doctest/doctest.h>

#include <string>

#include "models/scenario/reader/scenario_reader.hpp"
#include "models/workload/kernel_latency.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("the scenario's naming: the GPU names, the device names, or neither, never both") {
  CHECK(test::parse(test::base_scenario()).device_naming == DeviceNaming::Gpu);
  CHECK(test::parse(test::with_device_names(test::base_scenario())).device_naming == DeviceNaming::Device);

  json mixed = test::with_device_names(test::base_scenario());
  mixed["models"]["m"]["instances_per_gpu"] = 1;
  mixed["models"]["m"].erase("instances_per_device");
  CHECK(test::input_error_of([&] { test::parse(mixed); })
            .find("/models/m/instances_per_gpu: this scenario names its accelerators with the device names "
                  "(/platform/servers/0/device)") != std::string::npos);
  json priced = test::with_device_names(test::base_scenario());
  priced["costs"] = {{"currency", "EUR"}, {"cpu_core_hour", 0.01}, {"gpu_hour", 0.5}};
  CHECK(test::input_error_of([&] { test::parse(priced); }).find("/costs/gpu_hour: this scenario names") !=
        std::string::npos);
  priced["costs"].erase("gpu_hour");
  priced["costs"]["device_hour"] = 0.5;
  CHECK(test::parse(priced).costs->gpu_hour == 0.5);
}

TEST_CASE("a --set by the other name of a key the file gives replaces it, and the file's naming stays") {
  // cms-t2-waves names its server's accelerator "gpu": a --set of "device" sets it (and outputs keep
  // the GPU names); cms-particlenet-gpus names it "device": a --set of "gpu" sets it.
  const Scenario waves =
      load_scenario(SONICSIM_SCENARIOS_DIR "/cms-t2-waves.json", {{"/platform/servers/0/device", "T4"}});
  CHECK(waves.platform.servers[0].gpu_type == "T4");
  CHECK(waves.device_naming == DeviceNaming::Gpu);
  const Scenario gpus =
      load_scenario(SONICSIM_SCENARIOS_DIR "/cms-particlenet-gpus.json", {{"/platform/servers/0/gpu", "A100"}});
  CHECK(gpus.platform.servers[0].gpu_type == "A100");
  CHECK(gpus.device_naming == DeviceNaming::Device);
  // The other name inside the pointer too: a latency for the T4 under kernel_latency_by_gpu of a
  // file that has kernel_latency_by_device, then the server on the T4.
  const Scenario t4 = load_scenario(SONICSIM_SCENARIOS_DIR "/cms-particlenet-gpus.json",
                                    {{"/models/particlenet/kernel_latency_by_gpu/T4",
                                      R"({"type": "affine", "intercept": "2ms", "per_item": "10us"})"},
                                     {"/platform/servers/0/gpu", "T4"}});
  CHECK(t4.platform.servers[0].gpu_type == "T4");
  CHECK(kernel_latency_s(t4.models[t4.model_index("particlenet")].latency_for("T4"), 100) == doctest::Approx(0.003));
}
