// /workload/modules_from: a workload's modules from a FastTimerService report. The expected chains
// are computed here from the report file itself (tests/data/fasttimer/reco_4_events.json, written
// by hand from writeSummaryJSON's schema): a module's time per event is its "time_thread" (the job's
// sum, in ms) over /total/events.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "models/scenario/reader/scenario_reader.hpp"
#include "models/scenario/reader/warnings.hpp"
#include "tests/support/input_failure.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

const std::string kReport = SONICSIM_TEST_DATA_DIR "/fasttimer/reco_4_events.json";
const std::string kTagger = "pfParticleNetAK4JetTags";

json report_document() {
  std::ifstream in(kReport);
  return json::parse(in);
}

// Seconds per event of the report's entries that `take` selects (by type and label); "idle" never.
template <class Take>
double seconds_per_event(Take take) {
  const json report = report_document();
  double ms = 0;
  for (const json& m : report["modules"])
    if (m["label"] != "idle" && take(m["type"].get<std::string>(), m["label"].get<std::string>()))
      ms += m["time_thread"].get<double>();
  return ms / report["total"]["events"].get<double>() / 1e3;
}

json tagger_request() {
  return {{"items_per_event", 8}, {"items_per_request", 8}, {"preprocess", "2ms"}, {"in_flight", 1}};
}

// The base scenario with its modules from the report, grouped as `group` says, the tagger offloaded.
json from_report(const json& group, bool offload = true) {
  json d = test::base_scenario();
  d["workload"].erase("modules");
  json from = {{"fasttimer", kReport}, {"group", group}};
  if (offload) from["offload"] = {{kTagger, {{"model", "m"}, {"request", tagger_request()}}}};
  d["workload"]["modules_from"] = from;
  return d;
}

const CpuModule& cpu_at(const Scenario& s, std::size_t i) { return std::get<CpuModule>(s.workload.modules.at(i)); }
double seconds(const CpuModule& m) { return std::get<ConstantDist>(m.time).value; }

test::Failure modules_from_failure_of(const json& d) {
  return test::failure_of([&] { test::parse(d); });
}

// A copy of the report with `edit` applied, in the scratch directory, and the scenario that reads it.
template <class Edit>
json with_edited_report(const std::string& name, Edit edit) {
  json report = report_document();
  edit(report);
  json d = from_report("all", false);
  d["workload"]["modules_from"]["fasttimer"] = test::write_scratch_file(name, report.dump());
  return d;
}

}  // namespace

TEST_CASE("modules_from, grouped as one: the non-offloaded modules' time per event, then the offloaded module") {
  const Scenario s = test::parse(from_report("all"));
  REQUIRE(s.workload.modules.size() == 2);
  CHECK(cpu_at(s, 0).name == "process RECO");
  // 40 + 8 + 120 + 400 + 200 + 80 ms of modules, 20 ms "other", 12 ms "eventsetup" over 4 events.
  const double expected =
      seconds_per_event([](const std::string&, const std::string& label) { return label != kTagger; });
  CHECK(expected == doctest::Approx(0.220));
  CHECK(seconds(cpu_at(s, 0)) == doctest::Approx(expected).epsilon(1e-12));
  const auto& tagger = std::get<InferenceModule>(s.workload.modules.at(1));
  CHECK(tagger.name == kTagger);
  CHECK(tagger.model == 0);
  CHECK(std::get<int>(tagger.items_per_event) == 8);
  CHECK(tagger.items_per_request == 8);
  CHECK(std::get<ConstantDist>(tagger.preprocess).value == doctest::Approx(0.002));
  // Where no server serves it, it runs as it did when the report was taken: 600 ms over 4 events.
  const double tagger_s =
      seconds_per_event([](const std::string&, const std::string& label) { return label == kTagger; });
  CHECK(std::get<ConstantDist>(*tagger.cpu_fallback).value == doctest::Approx(tagger_s).epsilon(1e-12));
  REQUIRE(s.workload.modules_report.has_value());
  CHECK(s.workload.modules_report->events == 4);
  CHECK(s.workload.modules_report->file == kReport);
}

TEST_CASE("modules_from without offload: one CPU step of every module but idle") {
  const Scenario s = test::parse(from_report("all", false));
  REQUIRE(s.workload.modules.size() == 1);
  const double expected = seconds_per_event([](const std::string&, const std::string&) { return true; });
  CHECK(seconds(cpu_at(s, 0)) == doctest::Approx(expected).epsilon(1e-12));
}

TEST_CASE(
    "modules_from grouped by C++ type: one step per type, where its first module is, the offloaded one in between") {
  const Scenario s = test::parse(from_report("type"));
  const std::vector<std::string> names{
      "PoolSource", "BeamSpotProducer", "SiPixelClusterProducer", "TrackProducer", kTagger, "FastjetJetProducer",
      "other",      "eventsetup"};
  REQUIRE(s.workload.modules.size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    CAPTURE(i);
    const std::string name = std::visit([](const auto& m) { return m.name; }, s.workload.modules[i]);
    CHECK(name == names[i]);
    if (i == 4) continue;
    const double expected =
        seconds_per_event([&](const std::string& type, const std::string&) { return type == names[i]; });
    CHECK(seconds(cpu_at(s, i)) == doctest::Approx(expected).epsilon(1e-12));
  }
  // Both TrackProducers: (400 + 200) ms over 4 events.
  CHECK(seconds(cpu_at(s, 3)) == doctest::Approx(0.150));
}

TEST_CASE("modules_from grouped by module: one step per label, in the report's order") {
  const Scenario s = test::parse(from_report("module"));
  const json report = report_document();
  std::size_t i = 0;
  for (const json& m : report["modules"]) {
    const std::string label = m["label"];
    if (label == "idle") continue;
    CAPTURE(label);
    REQUIRE(i < s.workload.modules.size());
    const std::string name = std::visit([](const auto& module) { return module.name; }, s.workload.modules[i]);
    CHECK(name == label);
    if (label != kTagger)
      CHECK(seconds(cpu_at(s, i)) == doctest::Approx(m["time_thread"].get<double>() / 4 / 1e3).epsilon(1e-12));
    ++i;
  }
  CHECK(i == s.workload.modules.size());
}

TEST_CASE("modules_from in named groups (by package): members by label or type, the rest in one step") {
  const json groups = {{"RecoTracker", {"TrackProducer", "siPixelClusters"}}, {"RecoJets", {"ak4PFJets"}}};
  const Scenario s = test::parse(from_report(groups));
  REQUIRE(s.workload.modules.size() == 4);
  // The ungrouped step starts at the source (position 0), RecoTracker at siPixelClusters (2), the
  // tagger is at 5, RecoJets at 6.
  CHECK(cpu_at(s, 0).name == "ungrouped modules");
  CHECK(cpu_at(s, 1).name == "RecoTracker");
  CHECK(std::get<InferenceModule>(s.workload.modules[2]).name == kTagger);
  CHECK(cpu_at(s, 3).name == "RecoJets");
  const auto in_tracker = [](const std::string& type, const std::string& label) {
    return type == "TrackProducer" || label == "siPixelClusters";
  };
  const auto in_jets = [](const std::string&, const std::string& label) { return label == "ak4PFJets"; };
  CHECK(seconds(cpu_at(s, 1)) == doctest::Approx(seconds_per_event(in_tracker)).epsilon(1e-12));
  CHECK(seconds(cpu_at(s, 3)) == doctest::Approx(seconds_per_event(in_jets)).epsilon(1e-12));
  CHECK(seconds(cpu_at(s, 0)) ==
        doctest::Approx(seconds_per_event([&](const std::string& type, const std::string& label) {
          return !in_tracker(type, label) && !in_jets(type, label) && label != kTagger;
        })).epsilon(1e-12));
}

TEST_CASE("an offloaded module's request may give its own cpu_fallback") {
  json d = from_report("all");
  d["workload"]["modules_from"]["offload"][kTagger]["request"]["cpu_fallback"] = "1s";
  const Scenario s = test::parse(d);
  CHECK(std::get<ConstantDist>(*std::get<InferenceModule>(s.workload.modules.at(1)).cpu_fallback).value == 1.0);
}

TEST_CASE("the report's job's threads and streams become the jobs' own, unless the workload gives its own") {
  json d = from_report("all");
  CHECK(test::parse(d).workload.modules_report->threads == std::nullopt);
  CHECK_FALSE(test::parse(d).workload.threaded());
  d["platform"]["worker_pools"][0]["cores_per_node"] = 8;
  d["workload"]["modules_from"]["threads"] = 8;
  d["workload"]["modules_from"]["streams"] = 4;
  const Scenario s = test::parse(d);
  CHECK(s.workload.modules_report->threads == 8);
  CHECK(s.workload.modules_report->streams == 4);
  CHECK(s.workload.threaded());
  CHECK(s.workload.threads == 8);
  CHECK(s.workload.streams == 4);
  for (const std::string& warning : scenario_warnings(s)) CHECK(warning.find("modules_from") == std::string::npos);

  d["workload"]["threads"] = 2;  // the workload's own count wins, and its streams default to it
  const Scenario own = test::parse(d);
  CHECK(own.workload.threads == 2);
  CHECK(own.workload.streams == 2);
  CHECK(own.workload.modules_report->threads == 8);

  d["workload"].erase("threads");
  d["platform"]["worker_pools"][0]["cores_per_node"] = 4;  // the report's job does not fit a node
  const test::Failure failure = modules_from_failure_of(d);
  CHECK(failure.where == "/workload/modules_from/threads");
  CHECK(failure.message.find("expected at most 4 threads") != std::string::npos);
}

TEST_CASE("a relative report path is read beside the scenario file") {
  std::ostringstream text;
  text << std::ifstream(kReport).rdbuf();
  test::write_scratch_file("beside.json", text.str());
  json d = from_report("all");
  d["workload"]["modules_from"]["fasttimer"] = "beside.json";
  const std::string scenario = test::write_scratch_file("scenario-beside.json", d.dump());
  const Scenario s = load_scenario(scenario);
  CHECK(s.workload.modules_report->file == scenario.substr(0, scenario.rfind('/') + 1) + "beside.json");
  CHECK(seconds(cpu_at(s, 0)) == doctest::Approx(0.220));
}

TEST_CASE("bad modules_from settings are refused where they are written") {
  json d = from_report("all");
  d["workload"]["modules"] = test::base_scenario()["workload"]["modules"];
  CHECK(modules_from_failure_of(d).where == "/workload");
  CHECK(modules_from_failure_of(d).message.find("expected exactly one of \"modules\"") == 0);

  d = from_report("all");
  d["workload"]["modules_from"]["fasttimer"] = 3;
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/fasttimer");

  d = from_report("package");
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/group");
  CHECK(modules_from_failure_of(d).message ==
        "expected \"all\", \"type\" or \"module\" (or an object of named groups), got \"package\"");

  d = from_report(3);
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/group");
  CHECK(modules_from_failure_of(d).message ==
        "expected \"all\", \"type\" or \"module\" (or an object of named groups), got number");

  d = from_report("all");
  d["workload"]["modules_from"]["offload"]["noSuchModule"] = {{"model", "m"}, {"request", tagger_request()}};
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/offload/noSuchModule");
  CHECK(modules_from_failure_of(d).message.find("no module labelled \"noSuchModule\" in the FastTimerService report") ==
        0);

  d = from_report("all");
  d["workload"]["modules_from"]["offload"][kTagger]["model"] = "nope";
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/offload/" + kTagger + "/model");

  d = from_report("all");
  d["workload"]["modules_from"]["offload"][kTagger]["request"]["type"] = "inference";
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/offload/" + kTagger + "/request/type");

  d = from_report("all");
  d["workload"]["modules_from"]["threads"] = 0;
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/threads");

  // A check across sections names the offloaded module's request: the model has no variable dim.
  d = from_report("all");
  d["workload"]["modules_from"]["offload"][kTagger]["request"]["elements_per_item"] = 3;
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/offload/" + kTagger + "/request/elements_per_item");
}

TEST_CASE("named groups that do not fit the report are refused") {
  json d = from_report(json{{"g", {"noSuchLabelOrType"}}});
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/group/g/0");
  CHECK(modules_from_failure_of(d).message.find("\"noSuchLabelOrType\" is no CPU module's label or C++ type") == 0);
  d = from_report(json{{"a", {"TrackProducer"}}, {"b", {"initialStepTracks"}}});
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/group/b/0");
  CHECK(modules_from_failure_of(d).message ==
        "module \"initialStepTracks\" is already in group \"a\": expected each module in one group");
  d = from_report(json{{"g", {kTagger}}});
  CHECK(modules_from_failure_of(d).message.find("is offloaded") != std::string::npos);
  d = from_report(json{{"g", json::array()}});
  CHECK(modules_from_failure_of(d).where == "/workload/modules_from/group/g");
}

TEST_CASE("a report that is missing or malformed is refused, naming the report and where in it") {
  json d = from_report("all");
  d["workload"]["modules_from"]["fasttimer"] = "/nonexistent/report.json";
  CHECK(modules_from_failure_of(d).file == "/nonexistent/report.json");

  auto failure =
      modules_from_failure_of(with_edited_report("zero_events.json", [](json& r) { r["total"]["events"] = 0; }));
  CHECK(failure.file.find("zero_events.json") != std::string::npos);
  CHECK(failure.where == "/total/events");
  CHECK(failure.message.find("no events") != std::string::npos);

  failure = modules_from_failure_of(
      with_edited_report("negative.json", [](json& r) { r["modules"][3]["time_thread"] = -1.5; }));
  CHECK(failure.where == "/modules/3/time_thread");
  CHECK(failure.message.find("expected a number >= 0") == 0);

  failure = modules_from_failure_of(
      with_edited_report("string_time.json", [](json& r) { r["modules"][1]["time_thread"] = "8"; }));
  CHECK(failure.where == "/modules/1/time_thread");

  failure =
      modules_from_failure_of(with_edited_report("no_label.json", [](json& r) { r["modules"][2].erase("label"); }));
  CHECK(failure.where == "/modules/2/label");

  failure = modules_from_failure_of(
      with_edited_report("repeated.json", [](json& r) { r["modules"][4]["label"] = "initialStepTracks"; }));
  CHECK(failure.where == "/modules/4/label");
  CHECK(failure.message.find("repeats /modules/3") != std::string::npos);

  failure = modules_from_failure_of(with_edited_report("not_object.json", [](json& r) { r = json::array({1, 2}); }));
  CHECK(failure.where == "/");

  failure = modules_from_failure_of(with_edited_report("entry.json", [](json& r) { r["modules"][0] = 7; }));
  CHECK(failure.where == "/modules/0");

  failure =
      modules_from_failure_of(with_edited_report("huge.json", [](json& r) { r["modules"][0]["time_thread"] = 1e300; }));
  CHECK(failure.where == "/modules/0/time_thread");

  failure = modules_from_failure_of(
      with_edited_report("only_idle.json", [](json& r) { r["modules"] = json::array({r["modules"].back()}); }));
  CHECK(failure.where == "/workload/modules_from/fasttimer");
  CHECK(failure.message.find("only \"idle\"") != std::string::npos);
}

namespace {

const std::string kGraph = SONICSIM_TEST_DATA_DIR "/fasttimer/reco_4_events.gv";

std::string graph_text() {
  std::ostringstream text;
  text << std::ifstream(kGraph).rdbuf();
  return text.str();
}

json with_graph(const json& group, const std::string& graph = kGraph) {
  json d = from_report(group);
  d["workload"]["modules_from"]["graph"] = graph;
  return d;
}

}  // namespace

TEST_CASE("modules_from with a DependencyGraph file, one step per module: each waits for what it consumes") {
  const Scenario s = test::parse(with_graph("module"));
  REQUIRE(s.workload.graph.has_value());
  CHECK(s.workload.modules_report->graph_file == kGraph);
  // Steps in the report's order: 0 source, 1 offlineBeamSpot, 2 siPixelClusters, 3 initialStepTracks,
  // 4 lowPtTripletStepTracks, 5 the tagger, 6 ak4PFJets, 7 other, 8 eventsetup. From the file:
  // clusters consume the source; both track steps consume clusters and beam spot (the dashed path
  // edge between them ends at a producer, not a filter: no wait); the tagger and the jets consume
  // particleFlow, which the report does not time and which consumes both track collections; the
  // framework's "other" and "eventsetup" have no node and wait for nothing.
  const std::vector<std::vector<int>> expected{{}, {}, {0}, {1, 2}, {1, 2}, {3, 4}, {3, 4}, {}, {}};
  CHECK(s.workload.graph->after == expected);
}

TEST_CASE("modules_from with a DependencyGraph file: a path's order counts where it ends at a filter") {
  std::string text = graph_text();
  const std::string producer = "label=initialStepTracks, shape=box";
  text.replace(text.find(producer), producer.size(), "label=initialStepTracks, shape=diamond");
  const Scenario s = test::parse(with_graph("module", test::write_scratch_file("filter.gv", text)));
  CHECK(s.workload.graph->after[4] == std::vector<int>{1, 2, 3});
}

TEST_CASE("modules_from with a DependencyGraph file, grouped as one: the tagger waits for the step") {
  const Scenario s = test::parse(with_graph("all"));
  REQUIRE(s.workload.modules.size() == 2);
  const std::vector<std::vector<int>> expected{{}, {0}};
  CHECK(s.workload.graph->after == expected);
}

TEST_CASE("a group that the offloaded module splits is a cycle, refused at the graph") {
  std::string text = graph_text();
  text.insert(text.rfind('}'), "8 -> 7;\n");  // the jets consume the tagger's product
  json d = with_graph("all", test::write_scratch_file("split.gv", text));
  const test::Failure failure = modules_from_failure_of(d);
  CHECK(failure.where == "/workload/modules_from/graph");
  CHECK(failure.message.find("the modules \"process RECO\" -> \"" + kTagger +
                             "\" -> \"process RECO\" each wait for the next") == 0);
  CHECK(failure.message.find("\"group\": \"module\"") != std::string::npos);
  // One step per module has no cycle: the jets wait for the tagger, which waits for the tracks.
  d["workload"]["modules_from"]["group"] = "module";
  CHECK(test::parse(d).workload.graph->after[6] == std::vector<int>{3, 4, 5});
}

TEST_CASE("a DependencyGraph file that is not the report's job's, or not the subset read, is refused") {
  std::string text = graph_text();
  text.erase(text.find("2[color"), text.find('\n', text.find("2[color")) - text.find("2[color") + 1);
  json d = with_graph("module", test::write_scratch_file("no-beamspot.gv", text));
  test::Failure failure = modules_from_failure_of(d);
  CHECK(failure.where == "/workload/modules_from/graph");
  CHECK(failure.message.find("module \"offlineBeamSpot\" of the FastTimerService report") == 0);

  text = graph_text();
  text.insert(text.rfind('}'), "subgraph clusterSUB {\n}\n");
  failure = modules_from_failure_of(with_graph("module", test::write_scratch_file("sub.gv", text)));
  CHECK(failure.where == "line 23, column 1");  // inserted before the last line, 23
  CHECK(failure.message.find("'subgraph' is not read") == 0);

  text = graph_text();
  text.insert(text.rfind('}'), "9[label=source];\n");
  failure = modules_from_failure_of(with_graph("module", test::write_scratch_file("twice.gv", text)));
  CHECK(failure.where == "line 23");
  CHECK(failure.message.find("a second node labelled \"source\"") == 0);

  failure = modules_from_failure_of(with_graph("module", "/nonexistent/dependency.gv"));
  CHECK(failure.file == "/nonexistent/dependency.gv");
}
