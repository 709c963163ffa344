// What a scenario may say but likely does not mean: the warnings `run` prints before it simulates.
#include <doctest/doctest.h>

#include "models/scenario/reader/warnings.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("a device type that selects no kernel latency of its own is named, where it was likely meant to") {
  json d = test::base_scenario();  // a T4 server, a model with one kernel_latency for every type
  CHECK(scenario_warnings(test::parse(d)).empty());
  // The user changed the type on the command line: with one latency for every type, nothing changes.
  d["platform"]["servers"][0]["gpu"] = "A100";
  CHECK(
      scenario_warnings(test::parse(d), {0}) ==
      std::vector<std::string>{"server group \"s\": GPU type \"A100\" changes nothing: model \"m\" gives one "
                               "kernel_latency for every GPU (set its kernel_latency_by_gpu for per-type latencies)"});
  CHECK(scenario_warnings(test::parse(d), {}).empty());  // the file's own type: a label, as written
  // A table of latencies per type that leaves this type out: it falls back to the one latency.
  d["models"]["m"]["kernel_latency_by_gpu"] = {
      {"T4", {{"type", "affine"}, {"intercept", "2ms"}, {"per_item", "20us"}}},
      {"H100", {{"type", "affine"}, {"intercept", "1ms"}, {"per_item", "5us"}}}};
  CHECK(scenario_warnings(test::parse(d)) ==
        std::vector<std::string>{
            "server group \"s\": GPU type \"A100\" has no kernel latency of its own for model \"m\" "
            "(its kernel_latency_by_gpu lists H100, T4): it runs at the model's one kernel_latency"});
  d["platform"]["servers"][0]["gpu"] = "H100";
  CHECK(scenario_warnings(test::parse(d), {0}).empty());
  // Named the device way, the message says so.
  CHECK(scenario_warnings(test::parse(test::with_device_names(test::base_scenario())), {0})
            .front()
            .find("device type \"U250\" changes nothing") != std::string::npos);
}

TEST_CASE("requests larger than the model's max_batch_size are named: the server rejects them") {
  json d = test::base_scenario();
  d["workload"]["modules"][1]["items_per_request"] = 2000;  // max_batch_size 1000
  CHECK(scenario_warnings(test::parse(d)) ==
        std::vector<std::string>{"module \"ml\" sends requests of 2000 items but model \"m\" has max_batch_size 1000: "
                                 "the server rejects them"});
}

TEST_CASE("the --set pointers that change a group's device type") {
  CHECK(retyped_group("/platform/servers/0/gpu") == 0);
  CHECK(retyped_group("/platform/servers/12/device") == 12);
  CHECK(retyped_group("/platform/servers/0/count") == -1);
  CHECK(retyped_group("/platform/servers/x/gpu") == -1);
  CHECK(retyped_group("/models/m/gpu") == -1);
}
