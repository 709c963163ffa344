// The invariants the recorder checks while a run goes on (analysis/invariants.hpp: INV-9, INV-11 to
// INV-13) fire, with their number, when the recorder is told what breaks them. Each case builds the
// base scenario's platform in a child process (one SimGrid engine per process) and drives a
// Recorder by hand.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "cli/processes/isolated_run.hpp"
#include "sim/engine_setup.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// The recorder's violation after `drive` has told it what happened.
std::string violation_after(const json& document, const std::function<void(sim::Recorder&)>& drive) {
  const Scenario scenario = test::parse(document);
  return run_isolated([&] {
    const auto engine = sim::make_engine(scenario.simulation);
    const sim::FarmPlatform farm = sim::build_platform(scenario);
    sim::Recorder recorder(scenario, farm);
    drive(recorder);
    return recorder.invariant_violation();
  });
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("INV-11: a request answered twice") {
  const auto answer_twice = [](sim::Recorder& recorder) {
    sim::InFlightRequest* r = recorder.request_pool().new_request();
    r->record.status = RequestStatus::Rejected;
    recorder.request_answered(r);
    recorder.request_answered(r);
  };
  CHECK(starts_with(violation_after(test::base_scenario(), answer_twice), "INV-11 ("));
  const auto answer_once = [](sim::Recorder& recorder) {
    sim::InFlightRequest* r = recorder.request_pool().new_request();
    r->record.status = RequestStatus::Rejected;
    recorder.request_answered(r);
  };
  CHECK(violation_after(test::base_scenario(), answer_once).empty());
}

TEST_CASE("INV-9: a request that failed without a cause") {
  CHECK(starts_with(violation_after(test::base_scenario(),
                                    [](sim::Recorder& recorder) {
                                      sim::InFlightRequest* r = recorder.request_pool().new_request();
                                      r->record.status = RequestStatus::Failed;
                                      recorder.request_answered(r);
                                    }),
                    "INV-9 ("));
}

TEST_CASE("INV-12: a batch system's job submitted before the jobs ahead of it") {
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = 2;
  d["workload"].erase("start");
  d["workload"]["jobs"] = 2;
  d["workload"]["submit"] = {{"pattern", "all_at_once"}};
  CHECK(starts_with(violation_after(d, [](sim::Recorder& recorder) { recorder.job_ledger().submitted(1, 0); }),
                    "INV-12 ("));
  CHECK(violation_after(d, [](sim::Recorder& recorder) {
          recorder.job_ledger().submitted(0, 0);
          recorder.job_ledger().submitted(1, 0);
          recorder.job_ledger().submitted(0, 1);  // job 0 again: a resubmission
        }).empty());
}

TEST_CASE("INV-13: a batch of more units than max_batch_size") {
  const int max_batch_size = test::base_scenario()["models"]["m"]["max_batch_size"].get<int>();
  const auto batch_of = [](int units) {
    return [units](sim::Recorder& recorder) { recorder.batch_executed({0, 0, 0, 0, 0, 1, units, 0, 1}); };
  };
  CHECK(starts_with(violation_after(test::base_scenario(), batch_of(max_batch_size + 1)), "INV-13 ("));
  CHECK(violation_after(test::base_scenario(), batch_of(max_batch_size)).empty());
}
