#include "models/scenario/reader/workload/modules_from_reader.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/scenario/reader/workload/module_graph_reader.hpp"
#include "models/scenario/reader/workload/module_reader.hpp"
#include "models/workload/fasttimer_report.hpp"

namespace sonicsim {
namespace {

// The CPU step a module's time goes to, by the module: its label, its C++ type, or one for all.
enum class Grouping { All, ByType, ByModule };
constexpr Choice<Grouping> kGroupings[]{
    {"all", Grouping::All}, {"type", Grouping::ByType}, {"module", Grouping::ByModule}};

// Where a report's module goes: offloaded (its inference module) or into a named CPU step.
struct Placement {
  std::optional<InferenceModule> offloaded;
  std::string step;
};

std::map<std::string, InferenceModule> read_offload(const JsonNode& node, const FastTimerReport& report,
                                                    const std::vector<ModelSpec>& models) {
  std::map<std::string, InferenceModule> offloaded;
  for (const std::string& label : node.keys()) {
    const JsonNode entry = node.at(label);
    entry.allow_only({"model", "request"});
    const TimedModule* timed = report.find(label);
    if (!timed)
      entry.fail("no module labelled \"" + label + "\" in the FastTimerService report " + report.file +
                 " (expected a label of its \"modules\")");
    // Where no server serves it, the module runs on the worker's CPU as it did when the report was taken.
    offloaded.emplace(label, read_inference_request(entry.at("request"), label, entry.at("model"), models,
                                                    ConstantDist{timed->thread_s_per_event}));
  }
  return offloaded;
}

// {"STEP": ["label or C++ type", ...], ...}: each named module, and each module of a named type, in
// that step; the rest in one step of their own.
constexpr const char* kUngrouped = "ungrouped modules";

std::map<std::string, std::string> read_named_groups(const JsonNode& node, const FastTimerReport& report,
                                                     const std::map<std::string, InferenceModule>& offloaded) {
  std::map<std::string, std::string> step_of;  // label -> step
  for (const std::string& step : node.keys()) {
    const JsonNode members = node.at(step);
    const nlohmann::json step_name = step;
    JsonNode(step_name, members.pointer(), members.file()).name();  // a step name, as the outputs show it
    for (const JsonNode& member : members.non_empty_elements()) {
      const std::string name = member.string();
      if (offloaded.count(name))
        member.fail("module \"" + name + "\" is offloaded (under \"offload\"): expected a CPU module");
      bool matched = false;
      for (const TimedModule& m : report.modules) {
        if ((m.label != name && m.type != name) || offloaded.count(m.label)) continue;
        matched = true;
        const auto [at, fresh] = step_of.emplace(m.label, step);
        if (!fresh && at->second != step)
          member.fail("module \"" + m.label + "\" is already in group \"" + at->second +
                      "\": expected each module in one group");
      }
      if (!matched)
        member.fail("\"" + name + "\" is no CPU module's label or C++ type in the FastTimerService report " +
                    report.file);
    }
  }
  return step_of;
}

std::vector<Placement> place_modules(const JsonNode* group, const FastTimerReport& report,
                                     std::map<std::string, InferenceModule>& offloaded) {
  std::vector<Placement> placements;
  if (group && group->raw().is_object()) {
    const auto step_of = read_named_groups(*group, report, offloaded);
    for (const TimedModule& m : report.modules) {
      const auto step = step_of.find(m.label);
      placements.push_back({std::nullopt, step == step_of.end() ? kUngrouped : step->second});
    }
  } else {
    if (group && !group->raw().is_string())
      group->fail("expected " + choice_list(kGroupings) + " (or an object of named groups), got " +
                  group->raw().type_name());
    const Grouping grouping = group ? group->choice(kGroupings, "or an object of named groups") : Grouping::All;
    for (const TimedModule& m : report.modules)
      placements.push_back({std::nullopt, grouping == Grouping::ByModule ? m.label
                                          : grouping == Grouping::ByType ? m.type
                                                                         : "process " + report.process});
  }
  for (std::size_t i = 0; i < report.modules.size(); ++i)
    if (auto it = offloaded.find(report.modules[i].label); it != offloaded.end())
      placements[i].offloaded = std::move(it->second);
  return placements;
}

// The CPU steps (the sum of their modules' thread time per event) and the offloaded modules, each
// where its first module is in the report. `module_of`: per report module, where it went.
std::vector<Module> chain(const FastTimerReport& report, std::vector<Placement> placements,
                          std::vector<int>& module_of) {
  std::vector<Module> modules;
  std::map<std::string, std::size_t> step_index;
  for (std::size_t i = 0; i < report.modules.size(); ++i) {
    module_of.push_back(static_cast<int>(modules.size()));
    if (placements[i].offloaded) {
      modules.emplace_back(std::move(*placements[i].offloaded));
      continue;
    }
    const auto [at, fresh] = step_index.emplace(placements[i].step, modules.size());
    if (fresh) modules.emplace_back(CpuModule{placements[i].step, ConstantDist{0}});
    module_of.back() = static_cast<int>(at->second);
    std::get<ConstantDist>(std::get<CpuModule>(modules[at->second]).time).value += report.modules[i].thread_s_per_event;
  }
  return modules;
}

// The threads and streams of the job the report was taken from (CMSSW's numberOfThreads and
// numberOfStreams): the jobs run that way (sim/client/threaded_job), unless /workload gives its own
// threads or streams (read_workload reads those after this). Kept with the report as well.
void carry_job_shape(Workload& w, std::optional<int> threads, std::optional<int> streams) {
  w.modules_report->threads = threads;
  w.modules_report->streams = streams;
  if (threads) {
    w.threads = *threads;
    w.streams = *threads;
  }
  if (streams) w.streams = *streams;
}

}  // namespace

void read_modules_from(const JsonNode& node, const std::vector<ModelSpec>& models, Workload& w) {
  node.allow_only({"fasttimer", "group", "offload", "threads", "streams", "graph"});
  const FastTimerReport report = read_fasttimer_report(path_beside(node.file(), node.at("fasttimer").string()));
  std::map<std::string, InferenceModule> offloaded;
  if (auto offload = node.find("offload")) offloaded = read_offload(*offload, report, models);
  const auto group = node.find("group");
  std::vector<int> module_of;
  w.modules = chain(report, place_modules(group ? &*group : nullptr, report, offloaded), module_of);
  if (w.modules.empty())
    node.at("fasttimer")
        .fail("the FastTimerService report " + report.file + " times no module, only \"idle\": expected a module");
  w.modules_report = ModulesReport{report.file, report.events, std::nullopt, std::nullopt, ""};
  if (auto graph = node.find("graph")) {
    w.graph = read_report_graph(*graph, report, module_of, w.modules);
    w.modules_report->graph_file = path_beside(graph->file(), graph->string());
  }
  std::optional<int> threads, streams;
  if (auto t = node.find("threads")) threads = t->int_in(1, limits::kMaxCoresPerNode);
  if (auto s = node.find("streams")) streams = s->int_in(1, limits::kMaxStreamsPerJob);
  carry_job_shape(w, threads, streams);
}

std::vector<JsonNode> module_nodes(const JsonNode& workload, const Workload& w) {
  if (!w.modules_report) return workload.at("modules").elements();
  const JsonNode from = workload.at("modules_from");
  std::vector<JsonNode> nodes;
  for (const Module& m : w.modules) {
    const auto* inference = std::get_if<InferenceModule>(&m);
    nodes.push_back(inference ? from.at("offload").at(inference->name).at("request") : from);
  }
  return nodes;
}

}  // namespace sonicsim
