// summary.json read back: summary_from_json inverts summary_to_json field for field, with every
// optional section or none, in both namings of the accelerators, in memory and through the text a
// child process or a sweep point file carries; and the sections keep the layout summary.json has
// always had (the expected documents below are written out by hand, not by the field list).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/summary/summary_json.hpp"
#include "models/io/input_error.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// Every number differs from every other, so a key read into the wrong member cannot go unnoticed.
Summary every_section(DeviceNaming naming) {
  Summary s;
  s.scenario = "farm \"A\"";
  s.seed = std::numeric_limits<std::uint64_t>::max();
  s.latency_quantile = 0.9;
  s.device_naming = naming;
  s.simulated_s = 3600.5;
  s.warmup_s = 60.25;
  s.event_time = {1000, 2.5, 0.75, 1.125, 2.375, 3.625, 4.875, 9.0625};
  s.events_incomplete = 7;
  s.breakdown = {1.5, 0.125, 0.0625, 0.875, 0.25, 0.03125, 0.4375, 0.15625};
  s.steady = {40,
              75.5,
              true,
              960,
              stats::Interval{2.0, 0.5, 20, 48},
              176.25,
              Interval95{4.5, 0.375},
              Interval95{0.8125, 0.046875},
              CycleSummary{600, 14, 2}};
  s.events_per_s = 0.28125;
  s.requests_per_s = 1.40625;
  s.requests_sent = 5001;
  s.requests_completed = 4990;
  s.requests_rejected = 2;
  s.requests_in_flight = 0;
  s.batches = 3210;
  s.mean_batch_items = 11.5;
  s.gpu_utilization = 0.6875;
  s.gpus = {{"t4-0", 0, 0.625}, {"t4-0", 1, 0.75}};
  s.links = {{"wan (up)", 1e10, 2.5e12, 0.5625}, {"worker-3 (down) [busiest worker NIC]", 2.5e10, 1.25e11, 0.0078125}};
  TritonModelStatistics cnn{"cnn",
                            3599123,
                            4990,
                            3210,
                            {4990, 111},
                            {9, 222},
                            {4990, 333},
                            {4990, 444},
                            {4990, 555},
                            {4990, 666},
                            {{1, {10, 1}, {10, 2}, {10, 3}}, {8, {20, 4}, {20, 5}, {20, 6}}},
                            -1};
  TritonModelStatistics tagger = cnn;
  tagger.name = "tagger";
  tagger.batch_stats.pop_back();
  tagger.pending_requests = 4;
  s.triton = {{"t4-0", {cnn, tagger}}, {"t4-1", {}}};
  s.jobs = JobsSummary{400, 390, 350, 30, 10, 6, 4, QueueWait{12.5, 10.25, 30.75, 60.125, 90.0625}, 0.921875, 312};
  s.failures = FailureSummary{1, 2, 3, 4, 5, 14, 15, 17, 16, 120, 21600.5};
  s.gate = GateSummary{391, 12, 3, 240, 20};
  s.connections = ConnectionSummary{378, 9, 250};
  s.usage = UsageSummary{14.75, 401.5, 0.0147, "EUR", 0.00123};
  s.autoscaling = AutoscalingSummary{2.25, 2.5, 0.34375, 5, 8, 7, 6, 13, 1, 12.5};
  s.precision_stop = PrecisionStop{0.02, 11, true, 1900.5, false, CycleStop{600, 1800, 12000.5}};
  s.network = NetworkSummary{"off: network/crosstraffic is on"};
  return s;
}

// The layout of summary.json's sections, as summary.cpp wrote them before summaries were read back.
const char* const kGpuSections = R"({
  "steady_state": {"warmup_cut": {"events": 40, "until_s": 75.5, "at_limit": true}, "events_after_cut": 960,
    "event_time_s": {"mean": 2.0, "half_width_95": 0.5, "relative_half_width_95": 0.25, "batches": 20, "batch_size": 48},
    "window_s": 176.25, "events_per_s": {"mean": 4.5, "half_width_95": 0.375},
    "gpu_utilization": {"mean": 0.8125, "half_width_95": 0.046875},
    "load_cycles": {"cycle_s": 600, "count": 14, "cut": 2}},
  "requests": {"sent": 5001, "completed": 4990, "rejected": 2, "in_flight_at_end": 0, "failed": 12},
  "gpu": {"utilization": 0.6875, "per_gpu": [{"server": "t4-0", "gpu": 0, "utilization": 0.625},
                                              {"server": "t4-0", "gpu": 1, "utilization": 0.75}]},
  "jobs": {"submitted": 400, "started": 390, "done": 350, "running_at_end": 30, "queued_at_end": 10, "failed": 6,
    "resubmitted": 4, "queue_wait_s": {"mean": 12.5, "p50": 10.25, "p90": 30.75, "p99": 60.125, "max": 90.0625},
    "slot_occupancy": 0.921875, "peak_running": 312},
  "failures": {"servers_failed": 1, "servers_restarted": 2,
    "requests_failed": {"unavailable": 3, "deadline_exceeded": 4, "cancelled": 5}, "requests_retried": 14,
    "requests_failed_over": 15, "events_on_cpu_after_failure": 17, "jobs_failed": 16, "events_lost": 120,
    "cpu_lost_s": 21600.5},
  "gate": {"jobs_checked": 391, "jobs_refused": 12, "checked_without_metric": 3, "events_on_cpu": 240, "threshold_ms": 20},
  "connections": {"opened": 378, "refused": 9, "events_on_cpu": 250},
  "usage": {"gpu_hours": 14.75, "core_hours": 401.5, "gpu_hours_per_1000_events": 0.0147, "currency": "EUR",
    "cost_per_event": 0.00123},
  "autoscaling": {"mean_ready_replicas": 2.25, "mean_gpus_held": 2.5, "gpu_utilization_in_service": 0.34375,
    "max_ready_replicas": 5,
    "pods": {"created": 8, "became_ready": 7, "deleted": 6}, "requests_refused_while_draining": 13,
    "requests_killed_after_grace_period": 1, "threshold": 12.5},
  "stopping": {"relative_half_width_95": 0.02, "checks": 11, "reached": true, "load_from_s": 1900.5, "drained": false,
    "load_cycles": {"cycle_s": 600, "repeats_from_s": 1800, "repeats_until_s": 12000.5}},
  "network": {"fast_path": "off: network/crosstraffic is on"}
})";

// The whole document written, read back, and written again.
void check_round_trip(const Summary& s) {
  const json written = summary_to_json(s);
  const Summary back = summary_from_json(written);
  CHECK(back.device_naming == s.device_naming);
  CHECK(back.steady == s.steady);
  CHECK(back.triton == s.triton);
  CHECK(back.usage == s.usage);
  CHECK(back == s);
  CHECK(summary_to_json(back).dump(2) == written.dump(2));
  // Through text, as from a child process or a sweep point on disk: doubles keep every bit.
  const Summary parsed = summary_from_json(json::parse(written.dump()));
  CHECK(parsed == s);
  CHECK(summary_to_json(parsed).dump(2) == written.dump(2));
}

}  // namespace

TEST_CASE("a summary with every optional section comes back from its JSON field for field, in both namings") {
  for (DeviceNaming naming : {DeviceNaming::Gpu, DeviceNaming::Device}) {
    CAPTURE(static_cast<int>(naming));
    check_round_trip(every_section(naming));
  }
}

TEST_CASE("a summary without optional sections comes back from its JSON field for field, in both namings") {
  for (DeviceNaming naming : {DeviceNaming::Gpu, DeviceNaming::Device}) {
    Summary s;
    s.scenario = "bare";
    s.device_naming = naming;
    s.event_time.count = 2;
    s.links = {{"wan (up)", 8e9, 0, 0}};
    CAPTURE(static_cast<int>(naming));
    check_round_trip(s);
    const json j = summary_to_json(s);
    for (const char* section : {"jobs", "failures", "gate", "connections", "usage", "autoscaling", "stopping"})
      CHECK_FALSE(j.contains(section));
    CHECK_FALSE(j["requests"].contains("failed"));
    CHECK(j["latency_quantile"].is_null());
    CHECK(j["steady_state"]["event_time_s"].is_null());
    CHECK(j["steady_state"]["events_per_s"].is_null());
  }
}

TEST_CASE("summary.json's sections keep their layout, with the accelerators named as the scenario does") {
  const json gpu = summary_to_json(every_section(DeviceNaming::Gpu));
  const json expected = json::parse(kGpuSections);
  for (const auto& item : expected.items()) {
    const std::string key = item.key();
    CAPTURE(key);
    CHECK(gpu.at(key) == item.value());
  }
  // The same document with the device words: every key that names the accelerators, and no other.
  std::string device_text = expected.dump();
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"gpu_hours", "device_hours"},
                                 {"\"gpu_utilization\"", "\"device_utilization\""},
                                 {"\"per_gpu\"", "\"per_device\""},
                                 {"\"gpu\"", "\"device\""},
                                 {"mean_gpus_held", "mean_devices_held"},
                                 {"gpu_utilization_in_service", "device_utilization_in_service"}})
    for (std::size_t at; (at = device_text.find(from)) != std::string::npos;) device_text.replace(at, from.size(), to);
  const json device = summary_to_json(every_section(DeviceNaming::Device));
  const json device_expected = json::parse(device_text);
  for (const auto& item : device_expected.items()) {
    const std::string key = item.key();
    CAPTURE(key);
    CHECK(device.at(key) == item.value());
  }
  CHECK(device["events"]["breakdown_mean_s"]["device"] == 0.15625);
  CHECK_FALSE(device.contains("gpu"));
  CHECK(gpu["links"][0] ==
        json::parse(R"j({"name": "wan (up)", "bandwidth_bps": 1e10, "bytes": 2.5e12, "utilization": 0.5625})j"));
  CHECK(gpu["latency_quantile"] == 0.9);
  CHECK(gpu["seed"].dump() == "18446744073709551615");
}

TEST_CASE("the Triton statistics in summary.json are the statistics API's, per server") {
  const json j = summary_to_json(every_section(DeviceNaming::Gpu)).at("triton");
  REQUIRE(j.at("servers").size() == 2);
  CHECK(j["servers"][1] == json::parse(R"({"server": "t4-1", "model_stats": []})"));
  const json& cnn = j["servers"][0]["model_stats"][0];
  CHECK(cnn == json::parse(R"({
    "name": "cnn", "version": "1", "last_inference": 3599123, "inference_count": 4990, "execution_count": 3210,
    "inference_stats": {"success": {"count": 4990, "ns": 111}, "fail": {"count": 9, "ns": 222},
      "queue": {"count": 4990, "ns": 333}, "compute_input": {"count": 4990, "ns": 444},
      "compute_infer": {"count": 4990, "ns": 555}, "compute_output": {"count": 4990, "ns": 666},
      "cache_hit": {"count": 0, "ns": 0}, "cache_miss": {"count": 0, "ns": 0}},
    "batch_stats": [
      {"batch_size": 1, "compute_input": {"count": 10, "ns": 1}, "compute_infer": {"count": 10, "ns": 2},
       "compute_output": {"count": 10, "ns": 3}},
      {"batch_size": 8, "compute_input": {"count": 20, "ns": 4}, "compute_infer": {"count": 20, "ns": 5},
       "compute_output": {"count": 20, "ns": 6}}],
    "pending_request_count": -1})"));
  CHECK(j["servers"][0]["model_stats"][1]["pending_request_count"] == 4);
}

TEST_CASE("unset values inside a section are null in summary.json and come back unset") {
  Summary s = every_section(DeviceNaming::Device);
  s.usage = UsageSummary{1.5, 2.5, std::nullopt, std::nullopt, std::nullopt};
  s.steady.event_time_s.reset();
  s.steady.device_utilization.reset();
  const json j = summary_to_json(s);
  CHECK(j["usage"]["device_hours_per_1000_events"].is_null());
  CHECK(j["usage"]["currency"].is_null());
  CHECK(j["usage"]["cost_per_event"].is_null());
  CHECK(j["steady_state"]["device_utilization"].is_null());
  check_round_trip(s);
}

TEST_CASE("a number JSON cannot hold is written as null and read back as NaN, the document unchanged") {
  Summary s = every_section(DeviceNaming::Gpu);
  s.events_per_s = std::numeric_limits<double>::quiet_NaN();
  const json j = json::parse(summary_to_json(s).dump());
  CHECK(j["throughput"]["events_per_s"].is_null());
  const Summary back = summary_from_json(j);
  CHECK(std::isnan(back.events_per_s));
  CHECK(summary_to_json(back).dump() == j.dump());
}

TEST_CASE("a document that is not a summary is an input error naming the key") {
  const json good = summary_to_json(every_section(DeviceNaming::Gpu));
  json missing = good;
  missing["events"]["time_s"].erase("p90");
  CHECK_THROWS_WITH_AS(summary_from_json(missing, "points/000003.json"),
                       doctest::Contains("points/000003.json: /events/time_s/p90: missing"), InputError);
  json wrong = good;
  wrong["jobs"]["done"] = "350";
  CHECK_THROWS_WITH_AS(summary_from_json(wrong), doctest::Contains("/jobs/done: expected an integer"), InputError);
  json negative = good;
  negative["events"]["count"] = -1;
  CHECK_THROWS_WITH_AS(summary_from_json(negative), doctest::Contains("/events/count: expected an integer"),
                       InputError);
  json not_a_list = good;
  not_a_list["links"] = json::object();
  CHECK_THROWS_AS(summary_from_json(not_a_list), InputError);
  CHECK_THROWS_AS(summary_from_json(json::array()), InputError);
}

TEST_CASE("declared unknowns keep every run of their design in summary.json, sound or not, and come back") {
  Summary s = every_section(DeviceNaming::Gpu);
  UnknownsSummary u;
  u.design = "Latin hypercube";
  u.design_seed = 7;
  u.runs = 2;
  u.batches = 1;
  u.stopped = "--samples";
  u.unsound_runs = 1;
  u.unsound_reason = "3 jobs failed";
  u.unknowns = {{"/platform/servers/0/frontend/threads", "one of 2, 4", "gRPC threads"},
                {"/models/m/per_item", "between 1us and 2us", ""}};
  u.outputs = {{"throughput",
                "events/s",
                2.5,
                2.25,
                2.75,
                {{"/platform/servers/0/frontend/threads", 0.5}, {"/models/m/per_item", {}}}}};
  u.run_records = {{{"4", "\"1.5us\""}, {2.625}, ""}, {{"2", "\"1.25us\""}, {}, "3 jobs failed"}};
  s.declared_unknowns = u;
  check_round_trip(s);
  const json runs = summary_to_json(s).at("declared_unknowns").at("runs");
  CHECK(runs == json::parse(R"([{"values": ["4", "\"1.5us\""], "outputs": [2.625], "unsound": ""},
                                {"values": ["2", "\"1.25us\""], "outputs": [], "unsound": "3 jobs failed"}])"));
  json wrong = summary_to_json(s);
  wrong["declared_unknowns"]["runs"][0]["outputs"] = json::object();
  CHECK_THROWS_WITH_AS(summary_from_json(wrong),
                       doctest::Contains("/declared_unknowns/runs/0/outputs: expected an array"), InputError);
}
