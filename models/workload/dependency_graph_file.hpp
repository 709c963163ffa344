#pragma once
// The Graphviz file of CMSSW's DependencyGraph service (FWCore/Services/plugins/DependencyGraph.cc,
// DependencyGraph::preBeginJob and postBeginJob, which writes it with boost::write_graphviz):
//   digraph PROCESS {
//   graph [
//   label="process PROCESS", labelloc=top];
//   0[color=black, fillcolor=white, label=source, shape=oval, style=filled, tooltip=PoolSource];
//   1[color=black, fillcolor=lightgrey, label=LABEL, shape=box, style=filled, tooltip=C++TYPE];
//   1 -> 0;                  a "consumes" dependency: module 1 reads a product of module 0
//   3 -> 1[style=dashed];    path order: module 3 follows module 1 in a path
//   }
// Nodes are the module ids; a node's "label" is its module label, its "shape" its kind (box: an
// EDProducer, diamond: an EDFilter; node 0, the source, an oval). An edge points from the module
// that waits to the module it waits for. Read is that subset of the DOT language: one digraph, its
// graph/node/edge attribute statements (ignored), node statements and edge statements (chains
// a -> b -> c too), each with an optional [attribute list]; IDs plain, numeric or "quoted". Anything
// else (a subgraph, as a SubProcess writes, an undirected edge, HTML labels, comments) is an error
// naming the line and column.
#include <string>
#include <vector>

namespace sonicsim {

struct DependencyGraphFile {
  struct Node {
    std::string id;
    std::string label;  // its "label" attribute, or its id where it has none
    std::string shape;  // "" where it has none
    int line = 0;
  };
  struct Edge {
    int from = 0, to = 0;  // indices into nodes: `from` waits for `to`
    bool dashed = false;   // style=dashed: the order of a path, not a product consumed
    int line = 0;
  };
  std::string file;
  std::vector<Node> nodes;  // in the order the file first names them
  std::vector<Edge> edges;
};

DependencyGraphFile read_dependency_graph(const std::string& path);
DependencyGraphFile parse_dependency_graph(const std::string& text, const std::string& path);

}  // namespace sonicsim
