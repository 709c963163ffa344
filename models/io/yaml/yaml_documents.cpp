#include "models/io/yaml/yaml_documents.hpp"

#include <optional>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

namespace sonicsim {
namespace {

// Counts documents and notes where each starts; the rest of a document's events are not needed.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::size_t count = 0;
  std::optional<YAML::Mark> previous, latest;

  void OnDocumentStart(const YAML::Mark& mark) override {
    ++count;
    previous = latest;
    latest = mark;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

bool same_place(const YAML::Mark& a, const YAML::Mark& b) {
  return a.pos == b.pos && a.line == b.line && a.column == b.column;
}

}  // namespace

std::size_t count_yaml_documents(const std::string& text) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentStarts starts;
  // Every document that takes a token starts past the one before it.
  while (parser.HandleNextDocument(starts)) {
    if (starts.previous && same_place(*starts.previous, *starts.latest))
      throw YAML::ParserException(*starts.latest, "did not find expected node content");
  }
  return starts.count;
}

}  // namespace sonicsim
