#pragma once
// How many documents a YAML text holds, found from yaml-cpp's parser events without building them,
// so that a values file can be loaded as its one document (YAML::Load) instead of with LoadAll.
//
// yaml-cpp 0.7 stops taking tokens where a document's content should start and the token cannot
// start a node (a ',' outside a flow collection): SingleDocParser::HandleNode (singledocparser.cpp)
// reports a null node and leaves the token, so every later document starts at the same token and
// LoadAll (parse.cpp) collects null documents until memory runs out (upstream fixed the loop in
// yaml-cpp PR #1319, after 0.8.0). Here a document that starts where the one before it started
// ends the count with a YAML::ParserException at that token, carrying go-yaml's message for a
// token where a node should be ("did not find expected node content", parserc.go,
// yaml_parser_parse_node), as Helm would stop there.
#include <cstddef>
#include <string>

namespace sonicsim {

// Throws YAML::ParserException (or YAML::DeepRecursion) where the text is not YAML.
std::size_t count_yaml_documents(const std::string& text);

}  // namespace sonicsim
