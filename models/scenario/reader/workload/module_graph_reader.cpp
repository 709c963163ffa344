#include "models/scenario/reader/workload/module_graph_reader.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "models/workload/dependency_graph_file.hpp"

namespace sonicsim {
namespace {

void sort_unique(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// "a -> b -> a": the modules of a cycle, each waiting for the next.
std::string cycle_text(const std::vector<int>& cycle, const std::vector<Module>& modules) {
  std::string text;
  for (const int m : cycle) text.append("\"").append(module_name(modules[static_cast<std::size_t>(m)])).append("\" -> ");
  return text.append("\"").append(module_name(modules[static_cast<std::size_t>(cycle.front())])).append("\"");
}

}  // namespace

void read_module_after(const std::vector<JsonNode>& nodes, Workload& w) {
  if (std::none_of(nodes.begin(), nodes.end(), [](const JsonNode& n) { return n.has("after"); })) return;
  std::unordered_map<std::string, int> index;
  std::unordered_map<std::string, int> repeated;  // a name two modules have: the second of them
  for (std::size_t m = 0; m < w.modules.size(); ++m)
    if (!index.emplace(module_name(w.modules[m]), static_cast<int>(m)).second)
      repeated.emplace(module_name(w.modules[m]), static_cast<int>(m));
  ModuleGraph graph;
  graph.after.resize(w.modules.size());
  for (std::size_t m = 0; m < nodes.size(); ++m) {
    const auto after = nodes[m].find("after");
    if (!after) continue;
    for (const JsonNode& name_node : after->elements()) {
      const std::string name = name_node.string();
      const auto at = index.find(name);
      if (at == index.end()) name_node.fail("no module named \"" + name + "\": expected the name of a module of /workload/modules");
      if (auto twice = repeated.find(name); twice != repeated.end())
        name_node.fail("modules " + std::to_string(at->second) + " and " + std::to_string(twice->second) + " are both named \"" +
                       name + "\": expected a name that says which module this one waits for");
      if (at->second == static_cast<int>(m)) name_node.fail("a module cannot wait for itself: expected another module's name");
      graph.after[m].push_back(at->second);
    }
    sort_unique(graph.after[m]);
  }
  if (const std::vector<int> cycle = find_cycle(graph.after); !cycle.empty())
    nodes[static_cast<std::size_t>(cycle.front())].at("after").fail(
        "the modules " + cycle_text(cycle, w.modules) + " each wait for the next (a cycle): expected an event's modules to "
        "depend on each other without a cycle");
  w.graph = std::move(graph);
}

namespace {

// The dependencies the graph's edges give between its nodes: every "consumes" edge, and the edges
// of a path's order that end at a filter (diamond): a path runs its modules together and stops only
// at a filter, which the modules after it wait for (FWCore/Framework/src/Path.cc,
// Path::runNextWorkerAsync; runConcurrently is cleared for filters in StreamSchedule.cc).
std::vector<std::vector<int>> waits_of(const DependencyGraphFile& file) {
  std::vector<std::vector<int>> waits(file.nodes.size());
  for (const DependencyGraphFile::Edge& e : file.edges)
    if (!e.dashed || file.nodes[static_cast<std::size_t>(e.to)].shape == "diamond")
      waits[static_cast<std::size_t>(e.from)].push_back(e.to);
  return waits;
}

}  // namespace

ModuleGraph read_report_graph(const JsonNode& graph, const FastTimerReport& report, const std::vector<int>& module_of,
                              const std::vector<Module>& modules) {
  const DependencyGraphFile file = read_dependency_graph(path_beside(graph.file(), graph.string()));
  std::unordered_map<std::string, int> node_of;
  for (std::size_t n = 0; n < file.nodes.size(); ++n)
    if (!node_of.emplace(file.nodes[n].label, static_cast<int>(n)).second)
      throw InputError(file.file, "line " + std::to_string(file.nodes[n].line),
                       "a second node labelled \"" + file.nodes[n].label + "\": expected one node per module label");
  // Per node: the module it went to, or -1 for a node the report does not time (the source, say).
  std::vector<int> module_at(file.nodes.size(), -1);
  for (std::size_t i = 0; i < report.modules.size(); ++i) {
    const TimedModule& timed = report.modules[i];
    const auto node = node_of.find(timed.label);
    if (node != node_of.end()) {
      module_at[static_cast<std::size_t>(node->second)] = module_of[i];
    } else if (timed.type != "other" && timed.type != "eventsetup") {  // the framework's own time has no node
      graph.fail("module \"" + timed.label + "\" of the FastTimerService report " + report.file + " is no node of " + file.file +
                 ": expected the DependencyGraph file of the job the report was taken from");
    }
  }
  // A module waits for the modules its node reaches, through nodes the report does not time.
  const std::vector<std::vector<int>> waits = waits_of(file);
  ModuleGraph result;
  result.after.resize(modules.size());
  std::vector<int> seen(file.nodes.size(), -1), stack;
  for (std::size_t n = 0; n < file.nodes.size(); ++n) {
    const int module = module_at[n];
    if (module < 0) continue;
    stack.assign(waits[n].begin(), waits[n].end());
    while (!stack.empty()) {
      const int next = stack.back();
      stack.pop_back();
      if (seen[static_cast<std::size_t>(next)] == static_cast<int>(n)) continue;
      seen[static_cast<std::size_t>(next)] = static_cast<int>(n);
      const int needed = module_at[static_cast<std::size_t>(next)];
      if (needed < 0) {
        stack.insert(stack.end(), waits[static_cast<std::size_t>(next)].begin(), waits[static_cast<std::size_t>(next)].end());
      } else if (needed != module) {  // within one CPU step the step's own order holds
        result.after[static_cast<std::size_t>(module)].push_back(needed);
      }
    }
  }
  for (auto& after : result.after) sort_unique(after);
  if (const std::vector<int> cycle = find_cycle(result.after); !cycle.empty())
    graph.fail("the modules " + cycle_text(cycle, modules) + " each wait for the next (a cycle; a CPU step in it holds " +
               "modules both before and after another module of it): expected groups that no offloaded module splits, e.g. " +
               "\"group\": \"module\"");
  return result;
}

}  // namespace sonicsim
