#include <doctest/doctest.h>

#include "models/io/json/json_pointer.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "models/workload/kernel_latency.hpp"
#include "tests/support/input_failure.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {
// The error that parsing the modified base scenario raises: "(no error)" if it parses.
struct ParseOutcome {
  std::string pointer = "(no error)";
  std::string message = "(no error)";
};
ParseOutcome parse_outcome(const json& document) {
  try {
    test::parse(document);
  } catch (const InputError& e) {
    return {e.pointer(), e.what()};
  }
  return {};
}
std::string error_pointer(const json& document) { return parse_outcome(document).pointer; }
std::string error_message(const json& document) { return parse_outcome(document).message; }
}  // namespace

TEST_CASE("the base scenario parses into SI units") {
  const Scenario s = test::parse(test::base_scenario());
  CHECK(s.platform.site_uplink.bandwidth_Bps == doctest::Approx(125e6));
  CHECK(s.platform.wan->latency_s == doctest::Approx(1e-3));
  CHECK(s.models.at(0).input_bytes_per_item == 4000);
  const auto& ml = std::get<InferenceModule>(s.workload.modules.at(1));
  CHECK(ml.requests_for(std::get<int>(ml.items_per_event)) == 4);
  CHECK(s.simulation.network.tcp_gamma_bytes == 0);
}

TEST_CASE("a wrong unit is reported at its JSON path") {
  json d = test::base_scenario();
  d["platform"]["wan"]["bandwidth"] = "5GB";
  CHECK(error_pointer(d) == "/platform/wan/bandwidth");
  d["platform"]["wan"]["bandwidth"] = 5;
  CHECK(error_pointer(d) == "/platform/wan/bandwidth");
  CHECK(error_message(d).find("bandwidth") != std::string::npos);
  CHECK(error_message(d).find("test.json") == 0);
}

TEST_CASE("a missing field is reported with the path it should be at") {
  json d = test::base_scenario();
  d["models"]["m"].erase("max_batch_size");
  CHECK(error_pointer(d) == "/models/m/max_batch_size");
  CHECK(error_message(d).find("missing required field") != std::string::npos);
}

TEST_CASE("an unknown key is an error, not silently ignored") {
  json d = test::base_scenario();
  d["workload"]["modules"][1]["items_per_reqest"] = 10;
  CHECK(error_pointer(d) == "/workload/modules/1/items_per_reqest");
  CHECK(error_message(d).find("unknown key") != std::string::npos);
}

TEST_CASE("negative and zero counts are rejected") {
  json d = test::base_scenario();
  d["workload"]["jobs"] = -4;
  CHECK(error_pointer(d) == "/workload/jobs");
  d = test::base_scenario();
  d["platform"]["servers"][0]["gpus_per_server"] = 0;
  CHECK(error_pointer(d) == "/platform/servers/0/gpus_per_server");
  d = test::base_scenario();
  d["models"]["m"]["max_batch_size"] = 2.5;
  CHECK(error_pointer(d) == "/models/m/max_batch_size");
}

TEST_CASE("cross-references are checked") {
  json d = test::base_scenario();
  d["workload"]["modules"][1]["model"] = "nope";
  CHECK(error_pointer(d) == "/workload/modules/1/model");
  d = test::base_scenario();
  d["platform"]["servers"][0]["models"] = {"m", "other"};
  CHECK(error_pointer(d) == "/platform/servers/0/models/1");
  d = test::base_scenario();
  d["workload"]["jobs"] = 2;  // one node with one core
  CHECK(error_pointer(d) == "/workload/jobs");
  d = test::base_scenario();
  d["platform"]["servers"] = json::array();  // nothing serves the model and there is no fallback
  CHECK(error_pointer(d) == "/workload/modules/1");
  d["workload"]["modules"][1]["cpu_fallback"] = "20s";
  CHECK(error_pointer(d) == "(no error)");
}

TEST_CASE("kernel latency per GPU type must cover every served GPU type") {
  json d = test::base_scenario();
  d["models"]["m"].erase("kernel_latency");
  d["models"]["m"]["kernel_latency_by_gpu"] = {
      {"A100", {{"type", "affine"}, {"intercept", "1ms"}, {"per_item", "1us"}}}};
  CHECK(error_pointer(d) == "/models/m");
  d["models"]["m"]["kernel_latency_by_gpu"]["T4"] = {{"type", "affine"}, {"intercept", "2ms"}, {"per_item", "2us"}};
  const Scenario s = test::parse(d);
  CHECK(kernel_latency_s(s.models[0].latency_for("T4"), 0) == doctest::Approx(0.002));
}

TEST_CASE("distributions: shorthand, every kind, and their errors") {
  json d = test::base_scenario();
  auto& time = d["workload"]["modules"][0]["time"];
  time = {{"distribution", "lognormal"}, {"mean", "2s"}, {"stddev", "0.5s"}};
  CHECK(error_pointer(d) == "(no error)");
  time = {{"distribution", "empirical"}, {"samples", {"1s", "2s"}}};
  CHECK(error_pointer(d) == "(no error)");
  time = {{"distribution", "empirical"}, {"samples", json::array()}};
  CHECK(error_pointer(d) == "/workload/modules/0/time/samples");
  time = {{"distribution", "gamma"}, {"mean", "2s"}};
  CHECK(error_pointer(d) == "/workload/modules/0/time/distribution");
  time = 5;
  CHECK(error_pointer(d) == "/workload/modules/0/time");
}

TEST_CASE("a kernel latency's scale multiplies its curve: a what-if, of every form; zero or negative is an error") {
  json d = test::base_scenario();
  d["models"]["m"]["kernel_latency"] = {{"type", "affine"}, {"intercept", "1ms"}, {"per_item", "10us"}, {"scale", 1.5}};
  CHECK(kernel_latency_s(*test::parse(d).models[0].kernel_latency, 10) == doctest::Approx(1.5 * (1e-3 + 10 * 10e-6)));
  // A calibrated file's curve too: its one point of 1 ms, three times as slow.
  d["models"]["m"]["kernel_latency"] = {
      {"type", "calibrated"},
      {"file", test::write_scratch_file("scaled-latency.json", R"({"format": "sonicsim latency model v1",
      "selected": "table", "forms": {"table": {"points": [{"batch": 1, "latency_s": 0.001}]}}})")},
      {"scale", 3}};
  CHECK(kernel_latency_s(*test::parse(d).models[0].kernel_latency, 1) == doctest::Approx(3e-3));
  for (const double bad : {0.0, -2.0}) {
    d["models"]["m"]["kernel_latency"]["scale"] = bad;
    CHECK(error_pointer(d) == "/models/m/kernel_latency/scale");
  }
}

TEST_CASE("the kernel latency table must be increasing in batch size") {
  json d = test::base_scenario();
  d["models"]["m"]["kernel_latency"] =
      json::parse(R"({"type": "table", "points": [{"batch": 8, "latency": "2ms"}, {"batch": 4, "latency": "1ms"}]})");
  CHECK(error_pointer(d) == "/models/m/kernel_latency/points/1/batch");
}

TEST_CASE("exactly one of events_per_job and duration") {
  json d = test::base_scenario();
  d["workload"]["duration"] = "1h";
  CHECK(error_pointer(d) == "/workload");
  d["workload"].erase("events_per_job");
  CHECK(error_pointer(d) == "(no error)");
}

TEST_CASE("overrides replace values by JSON pointer; units need no quoting") {
  json d = test::base_scenario();
  apply_override(d, "/workload/jobs", "1", "t.json");
  apply_override(d, "/platform/wan/latency", "6ms", "t.json");
  CHECK(d["workload"]["jobs"] == 1);
  CHECK(d["platform"]["wan"]["latency"] == "6ms");
  CHECK_THROWS_AS(apply_override(d, "/nowhere/deep", "1", "t.json"), InputError);
}

TEST_CASE("syntax errors in the file name the line and column") {
  const std::string path = "bad_syntax_test.json";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("{\n  \"name\": \"x\",\n  oops\n}\n", f);
  std::fclose(f);
  try {
    read_json_file(path);
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("line 3") != std::string::npos);
  }
  std::remove(path.c_str());
}

TEST_CASE(
    "a server's accelerator is a device: device, devices_per_server and kernel_latency_by_device, or their older GPU "
    "names") {
  // The same farm written both ways parses to the same groups and latencies.
  json old_names = test::base_scenario();
  old_names["platform"]["servers"][0]["gpus_per_server"] = 2;
  old_names["models"]["m"].erase("kernel_latency");
  old_names["models"]["m"]["kernel_latency_by_gpu"] = {
      {"T4", {{"type", "affine"}, {"intercept", "1ms"}, {"per_item", "10us"}}}};
  json new_names = old_names;
  auto& group = new_names["platform"]["servers"][0];
  group["device"] = "U250";
  group["devices_per_server"] = group["gpus_per_server"];
  group.erase("gpu");
  group.erase("gpus_per_server");
  auto& model = new_names["models"]["m"];
  model["kernel_latency_by_device"] = {{"U250", model["kernel_latency_by_gpu"]["T4"]}};
  model.erase("kernel_latency_by_gpu");
  model["instances_per_device"] = model["instances_per_gpu"];
  model.erase("instances_per_gpu");
  const Scenario a = test::parse(old_names), b = test::parse(new_names);
  CHECK(b.platform.servers[0].gpu_type == "U250");
  CHECK(b.platform.servers[0].gpus_per_server == a.platform.servers[0].gpus_per_server);
  CHECK(kernel_latency_s(b.models[0].latency_for("U250"), 100) == kernel_latency_s(a.models[0].latency_for("T4"), 100));

  json both = new_names;
  both["platform"]["servers"][0]["gpu"] = "T4";
  CHECK(test::input_error_of([&] {
          test::parse(both);
        }).find("/platform/servers/0/gpu: give \"device\" or its older name \"gpu\", not both") != std::string::npos);
  json neither = new_names;
  neither["platform"]["servers"][0].erase("device");
  CHECK(test::input_error_of([&] {
          test::parse(neither);
        }).find("/platform/servers/0: expected \"device\" (or its older name \"gpu\")") != std::string::npos);
  json unserved = new_names;
  unserved["platform"]["servers"][0]["device"] = "IPU";
  // The message lists the device types the model has latencies for, in the file's naming.
  CHECK(test::input_error_of([&] { test::parse(unserved); })
            .find("/models/m: no kernel latency for device type \"IPU\" (served by server group \"s\"): "
                  "kernel_latency_by_device has U250 only") != std::string::npos);
  json two = old_names;
  two["models"]["m"]["kernel_latency_by_gpu"]["A100"] = two["models"]["m"]["kernel_latency_by_gpu"]["T4"];
  two["platform"]["servers"][0]["gpu"] = "V100";
  CHECK(test::input_error_of([&] { test::parse(two); })
            .find("no kernel latency for device type \"V100\" (served by server group \"s\"): "
                  "kernel_latency_by_gpu has A100 and T4 only") != std::string::npos);
  // A calibrated entry names its calibration file, as the scenario writes it.
  json calibrated = two;
  calibrated["models"]["m"]["kernel_latency_by_gpu"]["A100"] = {
      {"type", "calibrated"},
      {"file", test::write_scratch_file("a100-latency.json", R"({"format": "sonicsim latency model v1",
      "selected": "table", "forms": {"table": {"points": [{"batch": 1, "latency_s": 0.001}]}}})")}};
  CHECK(test::input_error_of([&] { test::parse(calibrated); })
            .find("kernel_latency_by_gpu has A100 (calibrated: " +
                  calibrated["models"]["m"]["kernel_latency_by_gpu"]["A100"]["file"].get<std::string>() +
                  ") and T4 only") != std::string::npos);
}
