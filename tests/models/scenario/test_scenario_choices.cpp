// The scenario's choice keys: each message lists its table's names in order, and messages that
// quote a name of another key take it from that key's table.
#include <doctest/doctest.h>

#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

std::string choice_error_of(const json& document) {
  return test::input_error_of([&] { test::parse(document); });
}

}  // namespace

TEST_CASE("submit patterns are the start patterns and the batch system's own, in that order") {
  json d = test::base_scenario();
  d["workload"]["start"]["pattern"] = "burst";
  CHECK(choice_error_of(d) ==
        "test.json: /workload/start/pattern: expected \"all_at_once\", \"staggered\", \"spread\" or "
        "\"waves\", got \"burst\"");
  d["workload"].erase("start");
  d["workload"]["submit"] = {{"pattern", "burst"}};
  CHECK(choice_error_of(d) ==
        "test.json: /workload/submit/pattern: expected \"all_at_once\", \"staggered\", \"spread\", "
        "\"waves\", \"poisson\" or \"trace\", got \"burst\"");
  d["workload"]["submit"] = {{"pattern", "waves"}, {"jobs_per_wave", 2}, {"period", "1s"}};
  CHECK(std::get<StartWaves>(*test::parse(d).workload.submit).jobs_per_wave == 2);
}

TEST_CASE("messages naming another key's choices take them from its table") {
  json d = test::base_scenario();
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "1Gbps"}, {"latency", "1ms"}}}};
  CHECK(choice_error_of(d) ==
        "test.json: /platform/proxy: a proxy balances requests: expected /platform/load_balancing "
        "\"round_robin\", \"random\" or \"least_request\" with it");
  d = test::base_scenario();
  d["workload"]["modules"][1]["on_failure"] = "fallback";
  CHECK(choice_error_of(d) ==
        "test.json: /workload/modules/1: \"on_failure\": \"fallback\" runs the module on the CPU: "
        "expected a \"cpu_fallback\" time");
  d["workload"]["modules"][1]["on_failure"] = "fail_job";
  d["workload"]["modules"][1]["fallback_scope"] = "job";
  CHECK(choice_error_of(d) ==
        "test.json: /workload/modules/1/fallback_scope: expected only with \"on_failure\": \"fallback\"");
  d = test::base_scenario();
  d["workload"]["modules"][1]["items_per_event"] = {{"distribution", "poisson"}, {"mean", 1e5}};
  CHECK(choice_error_of(d) ==
        "test.json: /workload/modules/1/items_per_event/mean: expected a mean above 0 and at most 10000 "
        "(for larger counts use \"uniform\" or \"empirical\")");
}

TEST_CASE("each choice key lists its names") {
  const auto error_setting = [](const json::json_pointer& key, const json& value) {
    json d = test::base_scenario();
    d[key] = value;
    return choice_error_of(d);
  };
  CHECK(error_setting(json::json_pointer("/platform/load_balancing"), "nearest") ==
        "test.json: /platform/load_balancing: expected \"per_job\", \"round_robin\", \"random\" or \"least_request\", "
        "got \"nearest\"");
  CHECK(
      error_setting(json::json_pointer("/workload/modules/1/on_failure"), "retry") ==
      "test.json: /workload/modules/1/on_failure: expected \"fail_job\", \"fallback\" or \"failover\", got \"retry\"");
  CHECK(error_setting(json::json_pointer("/workload/modules/1/type"), "gpu") ==
        "test.json: /workload/modules/1/type: expected \"cpu\" or \"inference\", got \"gpu\"");
  CHECK(error_setting(json::json_pointer("/models/m/kernel_latency/type"), "cubic") ==
        "test.json: /models/m/kernel_latency/type: expected \"affine\", \"table\", \"knee\" or \"calibrated\", got "
        "\"cubic\"");
  CHECK(error_setting(json::json_pointer("/workload/events_per_job"), json{{"distribution", "poisson"}}) ==
        "test.json: /workload/events_per_job/distribution: expected \"uniform\" or \"empirical\" (events per job), got "
        "\"poisson\"");
  CHECK(error_setting(json::json_pointer("/simulation/network/model"), "LV09") ==
        "test.json: /simulation/network/model: expected \"CM02\" or \"LV08\", got \"LV09\"");
  CHECK(error_setting(json::json_pointer("/simulation/outputs"), json{"events", "csv"}) ==
        "test.json: /simulation/outputs/1: expected \"events\", \"requests\", \"batches\", \"metrics\", \"jobs\" or "
        "\"timeseries\", got \"csv\"");
}
