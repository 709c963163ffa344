// The module graph (models/workload/module_graph.hpp) and the DependencyGraph service's Graphviz
// file (models/workload/dependency_graph_file.hpp): cycles, and the subset of DOT that is read,
// with one error line (file, line and column, what was expected) for anything else.
#include <doctest/doctest.h>

#include <string>

#include "models/workload/dependency_graph_file.hpp"
#include "models/workload/module_graph.hpp"
#include "tests/support/input_failure.hpp"

using namespace sonicsim;

TEST_CASE("find_cycle: none in a chain, a diamond or a forest; the modules along one where there is") {
  CHECK(find_cycle({}).empty());
  CHECK(find_cycle({{}, {0}, {1}}).empty());          // 2 after 1 after 0
  CHECK(find_cycle({{}, {0}, {0}, {1, 2}}).empty());  // a diamond
  CHECK(find_cycle({{}, {}, {}}).empty());
  CHECK(find_cycle({{1}, {0}}) == std::vector<int>{0, 1});  // 0 waits for 1, 1 for 0
  CHECK(find_cycle({{}, {2}, {3}, {1}}) == std::vector<int>{1, 2, 3});
  CHECK(find_cycle({{0}}) == std::vector<int>{0});
}

TEST_CASE("find_cycle walks a chain of 200,000 modules without recursion") {
  std::vector<std::vector<int>> after(200'000);
  for (std::size_t m = 1; m < after.size(); ++m) after[m] = {static_cast<int>(m - 1)};
  CHECK(find_cycle(after).empty());
  after[0] = {static_cast<int>(after.size() - 1)};
  CHECK(find_cycle(after).size() == after.size());
}

TEST_CASE("dependents and roots are the reverse of after, ascending") {
  const ModuleGraph g{{{}, {0}, {0}, {1, 2}}};
  CHECK(g.roots() == std::vector<int>{0});
  const auto waiting = g.dependents();
  CHECK(waiting[0] == std::vector<int>{1, 2});
  CHECK(waiting[1] == std::vector<int>{3});
  CHECK(waiting[3].empty());
}

TEST_CASE("the DependencyGraph service's own output: labels, shapes, edges from the module that waits") {
  const std::string text = R"(digraph HLTX {
graph [
label="process HLTX", labelloc=top];
0[color=black, fillcolor=white, label=source, shape=oval, style=filled, tooltip=PoolSource];
1[color=black, fillcolor=lightgrey, label="hlt\"Odd\" label", shape=diamond, style=filled, tooltip="edm::Filter<1>"];
2[color=black, fillcolor=white, label=hltTagger, shape=box, style=filled, tooltip=SonicProducer];
2 -> 0;
2 -> 1[style=dashed];
}
)";
  const DependencyGraphFile g = parse_dependency_graph(text, "dep.gv");
  REQUIRE(g.nodes.size() == 3);
  CHECK(g.nodes[0].label == "source");
  CHECK(g.nodes[0].shape == "oval");
  CHECK(g.nodes[1].label == "hlt\"Odd\" label");
  CHECK(g.nodes[1].shape == "diamond");
  CHECK(g.nodes[2].line == 6);
  REQUIRE(g.edges.size() == 2);
  CHECK((g.edges[0].from == 2 && g.edges[0].to == 0 && !g.edges[0].dashed));
  CHECK((g.edges[1].from == 2 && g.edges[1].to == 1 && g.edges[1].dashed));
}

TEST_CASE("a hand-written digraph: names as IDs and labels, chains, statements on one line") {
  const DependencyGraphFile g = parse_dependency_graph("digraph { a -> b -> c; d; c -> a [style=dashed] }", "x.gv");
  REQUIRE(g.nodes.size() == 4);
  CHECK(g.nodes[3].label == "d");
  REQUIRE(g.edges.size() == 3);
  CHECK((g.edges[0].from == 0 && g.edges[0].to == 1));
  CHECK((g.edges[1].from == 1 && g.edges[1].to == 2));
  CHECK(g.edges[2].dashed);
}

TEST_CASE("what the subset does not read is refused with its line and column") {
  const auto failure = [](const std::string& text) {
    return test::failure_of([&] { parse_dependency_graph(text, "bad.gv"); });
  };
  CHECK(failure("graph { a -- b }").where == "line 1, column 1");
  CHECK(failure("graph { a -- b }").message.find("expected 'digraph'") == 0);
  CHECK(failure("digraph {\n a -- b }").where == "line 2, column 4");
  CHECK(failure("digraph {\n a -- b }").message.find("expected '->' (a directed edge)") == 0);
  CHECK(failure("digraph {\n subgraph clusterX { a } }").where == "line 2, column 2");
  CHECK(failure("digraph {\n subgraph clusterX { a } }").message.find("'subgraph' is not read") == 0);
  CHECK(failure("digraph { a -> }").message.find("expected a node after '->', got '}'") == 0);
  CHECK(failure("digraph { a [label=b }").message.find("expected an attribute name or ']', got '}'") == 0);
  CHECK(failure("digraph { a [label b] }").message.find("expected '=', got 'b'") == 0);
  CHECK(failure("digraph { a [label=\"b }").message.find("expected the closing '\"'") == 0);
  CHECK(failure("digraph { a } b").message.find("expected the end of the file") == 0);
  CHECK(failure("digraph { a ")
            .message.find("expected a node, an edge, an attribute statement or '}', got the end of the file") == 0);
  CHECK(failure("digraph { // note\n a }").where == "line 1, column 11");
  CHECK(failure("digraph { 9abc }").message.find("expected an ID") == 0);
  CHECK(failure("digraph { a -> <b> }").message.find("unexpected character '<'") == 0);
  // Every message names the subset, so that the reader knows the file itself may be valid DOT.
  CHECK(failure("digraph { a -> <b> }")
            .message.find("the subset of the DOT language that CMSSW's DependencyGraph service writes") !=
        std::string::npos);
  CHECK(failure("digraph { a -> <b> }").file == "bad.gv");
}
