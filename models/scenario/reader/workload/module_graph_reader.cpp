#include "models/scenario/reader/workload/module_graph_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
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
  for (const int m : cycle)
    text.append("\"").append(module_name(modules[static_cast<std::size_t>(m)])).append("\" -> ");
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
      if (at == index.end())
        name_node.fail("no module named \"" + name + "\": expected the name of a module of /workload/modules");
      if (auto twice = repeated.find(name); twice != repeated.end())
        name_node.fail("modules " + std::to_string(at->second) + " and " + std::to_string(twice->second) +
                       " are both named \"" + name + "\": expected a name that says which module this one waits for");
      if (at->second == static_cast<int>(m))
        name_node.fail("a module cannot wait for itself: expected another module's name");
      graph.after[m].push_back(at->second);
    }
    sort_unique(graph.after[m]);
  }
  if (const std::vector<int> cycle = find_cycle(graph.after); !cycle.empty())
    nodes[static_cast<std::size_t>(cycle.front())].at("after").fail(
        "the modules " + cycle_text(cycle, w.modules) +
        " each wait for the next (a cycle): expected an event's modules to "
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

// At most this many dependencies held for the nodes the report does not time. A report and the
// DependencyGraph file of one job have no such node but the source at most (FastTimerService times
// every module of the process); only a file that does not match its report can come near it.
constexpr std::size_t kMostUntimedDependencies = 20'000'000;

// Per node the report does not time (module_at -1): the modules it reaches through such nodes
// only, sorted; a module waiting for it waits for those. Each is found once, from its successors',
// depth first without recursion.
std::vector<std::vector<int>> untimed_frontiers(const DependencyGraphFile& file,
                                                const std::vector<std::vector<int>>& waits,
                                                const std::vector<int>& module_at) {
  enum class Mark : std::uint8_t { New, OnPath, Done };
  std::vector<Mark> mark(file.nodes.size(), Mark::New);
  std::vector<std::vector<int>> frontier(file.nodes.size());
  std::vector<std::pair<int, std::size_t>> path;  // node, next of its edges to follow
  std::size_t held = 0;
  for (std::size_t start = 0; start < file.nodes.size(); ++start) {
    if (module_at[start] >= 0 || mark[start] != Mark::New) continue;
    path.emplace_back(static_cast<int>(start), 0);
    mark[start] = Mark::OnPath;
    while (!path.empty()) {
      const auto node = static_cast<std::size_t>(path.back().first);
      const std::size_t edge = path.back().second++;
      if (edge < waits[node].size()) {
        const auto next = static_cast<std::size_t>(waits[node][edge]);
        if (module_at[next] >= 0 || mark[next] == Mark::Done) continue;
        if (mark[next] == Mark::OnPath)
          throw InputError(file.file, "line " + std::to_string(file.nodes[next].line),
                           "node \"" + file.nodes[next].label +
                               "\" waits for itself through nodes the report does not "
                               "time (a cycle): expected a job's module dependencies, which have none");
        mark[next] = Mark::OnPath;
        path.emplace_back(static_cast<int>(next), 0);
        continue;
      }
      std::vector<int>& reached = frontier[node];
      for (const int to : waits[node]) {
        const int module = module_at[static_cast<std::size_t>(to)];
        if (module >= 0)
          reached.push_back(module);
        else
          reached.insert(reached.end(), frontier[static_cast<std::size_t>(to)].begin(),
                         frontier[static_cast<std::size_t>(to)].end());
      }
      sort_unique(reached);
      held += reached.size();
      if (held > kMostUntimedDependencies)
        throw InputError(
            file.file, "line " + std::to_string(file.nodes[node].line),
            "the nodes that the FastTimerService report does not time pass on more than " +
                std::to_string(kMostUntimedDependencies) +
                " dependencies: expected the DependencyGraph file of the report's job, whose modules it times");
      mark[node] = Mark::Done;
      path.pop_back();
    }
  }
  return frontier;
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
  // Per node: the module it went to.
  std::vector<int> module_at(file.nodes.size(), -1);
  for (std::size_t i = 0; i < report.modules.size(); ++i) {
    const TimedModule& timed = report.modules[i];
    const auto node = node_of.find(timed.label);
    if (node != node_of.end()) {
      module_at[static_cast<std::size_t>(node->second)] = module_of[i];
    } else if (timed.type != "other" && timed.type != "eventsetup") {  // the framework's own time has no node
      graph.fail("module \"" + timed.label + "\" of the FastTimerService report " + report.file + " is no node of " +
                 file.file + ": expected the DependencyGraph file of the job the report was taken from");
    }
  }
  const std::vector<std::vector<int>> waits = waits_of(file);
  const std::vector<std::vector<int>> through = untimed_frontiers(file, waits, module_at);
  ModuleGraph result;
  result.after.resize(modules.size());
  for (std::size_t n = 0; n < waits.size(); ++n) {
    const int module = module_at[n];
    if (module < 0) continue;
    auto& after = result.after[static_cast<std::size_t>(module)];
    for (const int to : waits[n]) {
      const auto& needed = module_at[static_cast<std::size_t>(to)] >= 0
                               ? std::vector<int>{module_at[static_cast<std::size_t>(to)]}
                               : through[static_cast<std::size_t>(to)];
      for (const int m : needed)
        if (m != module) after.push_back(m);  // within one CPU step, the step's own order holds
    }
  }
  for (auto& after : result.after) sort_unique(after);
  if (const std::vector<int> cycle = find_cycle(result.after); !cycle.empty())
    graph.fail(
        "the modules " + cycle_text(cycle, modules) + " each wait for the next (a cycle; a CPU step in it holds " +
        "modules both before and after another module of it): expected groups that no offloaded module splits, e.g. " +
        "\"group\": \"module\"");
  return result;
}

}  // namespace sonicsim
