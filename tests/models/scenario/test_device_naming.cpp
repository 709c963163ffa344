// A server's accelerator may be any device (GPU, FPGA, IPU): a scenario names it the GPU way or the
// device way, never both.
#include <doctest/doctest.h>

#include <string>

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
