#include "models/workload/dependency_graph_file.hpp"

#include <cctype>
#include <map>
#include <unordered_map>
#include <utility>

#include "models/io/input_error.hpp"
#include "models/io/input_file.hpp"

namespace sonicsim {
namespace {

struct Token {
  enum Kind { Id, Arrow, Punct, End } kind;
  std::string text;  // Id: the ID, unquoted; Punct: the character
  int line, column;
};

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& path) : text_(text), path_(path) {}

  Token next() {
    skip_space();
    const int line = line_, column = column_;
    if (at_ >= text_.size()) return {Token::End, "", line, column};
    const char c = text_[at_];
    if (c == '-' && at_ + 1 < text_.size() && text_[at_ + 1] == '-')
      fail(line, column, "expected '->' (a directed edge), got '--' (an undirected one)");
    if (c == '-' && at_ + 1 < text_.size() && text_[at_ + 1] == '>') {
      advance(2);
      return {Token::Arrow, "->", line, column};
    }
    if (c == '{' || c == '}' || c == '[' || c == ']' || c == '=' || c == ';' || c == ',') {
      advance(1);
      return {Token::Punct, std::string(1, c), line, column};
    }
    if (c == '"') return quoted(line, column);
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') return plain(line, column);
    fail(line, column, std::string("unexpected character '") + c + "'");
  }

  [[noreturn]] void fail(int line, int column, const std::string& what) const {
    throw InputError(path_, "line " + std::to_string(line) + ", column " + std::to_string(column),
                     what + " (the subset of the DOT language that CMSSW's DependencyGraph service writes)");
  }

 private:
  void advance(std::size_t n) {
    for (; n > 0; --n, ++at_) {
      if (text_[at_] == '\n') {
        ++line_;
        column_ = 1;
      } else {
        ++column_;
      }
    }
  }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) advance(1);
  }
  // A plain ID (letters, digits, underscores, not starting with a digit) or a numeral, as
  // boost's escape_dot_string leaves unquoted.
  Token plain(int line, int column) {
    const std::size_t from = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_' ||
                                  text_[at_] == '.' || (text_[at_] == '-' && at_ == from)))
      advance(1);
    std::string id = text_.substr(from, at_ - from);
    const std::size_t digits = id.find_first_of("0123456789");
    const bool numeral = id.find_first_not_of("-.0123456789") == std::string::npos && digits != std::string::npos &&
                         id.find('-', 1) == std::string::npos && id.find('.') == id.rfind('.');
    const bool name = !std::isdigit(static_cast<unsigned char>(id[0])) && id.find_first_of("-.") == std::string::npos;
    if (!numeral && !name)
      fail(line, column, "expected an ID (a name, a number or a \"quoted string\"), got '" + id + "'");
    return {Token::Id, std::move(id), line, column};
  }
  // A "quoted string", where \" stands for a quote (escape_dot_string).
  Token quoted(int line, int column) {
    advance(1);
    std::string id;
    for (;;) {
      if (at_ >= text_.size()) fail(line, column, "expected the closing '\"' of this string");
      const char c = text_[at_];
      if (c == '"') break;
      if (c == '\\' && at_ + 1 < text_.size() && text_[at_ + 1] == '"') {
        id += '"';
        advance(2);
        continue;
      }
      id += c;
      advance(1);
    }
    advance(1);
    return {Token::Id, std::move(id), line, column};
  }

  const std::string& text_;
  const std::string& path_;
  std::size_t at_ = 0;
  int line_ = 1, column_ = 1;
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& path) : lexer_(text, path) {
    graph_.file = path;
    take();
  }

  DependencyGraphFile parse() {
    if (token_.kind != Token::Id || token_.text != "digraph")
      fail("expected 'digraph' (a directed graph), got " + describe());
    take();
    if (token_.kind == Token::Id) take();  // the graph's name: the process name
    expect("{");
    while (!is("}")) statement();
    take();
    if (token_.kind != Token::End) fail("expected the end of the file after the graph's '}', got " + describe());
    return std::move(graph_);
  }

 private:
  using Attributes = std::map<std::string, std::string>;

  void statement() {
    if (token_.kind != Token::Id) fail("expected a node, an edge, an attribute statement or '}', got " + describe());
    const Token first = token_;
    take();
    if (first.text == "subgraph" || first.text == "strict" || first.text == "digraph")
      lexer_.fail(first.line, first.column,
                  "'" + first.text + "' is not read: expected one process's graph, without " + "SubProcess subgraphs");
    if (first.text == "graph" || first.text == "node" || first.text == "edge") {
      attributes();        // defaults for the graph: nothing a module's dependencies depend on
    } else if (is("=")) {  // a graph attribute: ID = ID
      take();
      id("a value after '='");
    } else {
      std::vector<int> chain{node(first.text, first.line)};
      while (token_.kind == Token::Arrow) {
        take();
        const Token next = token_;
        chain.push_back(node(id("a node after '->'"), next.line));
      }
      const Attributes list = attributes();
      if (chain.size() == 1) {
        if (auto label = list.find("label"); label != list.end()) graph_.nodes[chain[0]].label = label->second;
        if (auto shape = list.find("shape"); shape != list.end()) graph_.nodes[chain[0]].shape = shape->second;
      } else {
        const auto style = list.find("style");
        const bool dashed = style != list.end() && style->second == "dashed";
        for (std::size_t i = 0; i + 1 < chain.size(); ++i)
          graph_.edges.push_back({chain[i], chain[i + 1], dashed, first.line});
      }
    }
    if (is(";")) take();
  }

  // [a=b, c=d] or nothing.
  Attributes attributes() {
    Attributes list;
    if (!is("[")) return list;
    take();
    while (!is("]")) {
      std::string key = id("an attribute name or ']'");
      expect("=");
      list[std::move(key)] = id("an attribute value");
      if (is(",") || is(";")) take();
    }
    take();
    return list;
  }

  int node(const std::string& id, int line) {
    const auto [at, fresh] = index_.emplace(id, static_cast<int>(graph_.nodes.size()));
    if (fresh) graph_.nodes.push_back({id, id, "", line});
    return at->second;
  }

  std::string id(const std::string& expected) {
    if (token_.kind != Token::Id) fail("expected " + expected + ", got " + describe());
    std::string text = std::move(token_.text);
    take();
    return text;
  }
  void expect(const char* punct) {
    if (!is(punct)) fail(std::string("expected '") + punct + "', got " + describe());
    take();
  }
  bool is(const char* punct) const { return token_.kind == Token::Punct && token_.text == punct; }
  std::string describe() const {
    switch (token_.kind) {
      case Token::End: return "the end of the file";
      case Token::Arrow: return "'->'";
      case Token::Punct: return "'" + token_.text + "'";
      case Token::Id: return "'" + token_.text + "'";
    }
    return "";
  }
  void take() { token_ = lexer_.next(); }
  [[noreturn]] void fail(const std::string& what) const { lexer_.fail(token_.line, token_.column, what); }

  Lexer lexer_;
  Token token_{Token::End, "", 1, 1};
  DependencyGraphFile graph_;
  std::unordered_map<std::string, int> index_;
};

}  // namespace

DependencyGraphFile read_dependency_graph(const std::string& path) {
  return parse_dependency_graph(read_input_file(path, kMaxLogFileBytes, "line 1"), path);
}

DependencyGraphFile parse_dependency_graph(const std::string& text, const std::string& path) {
  return Parser(text, path).parse();
}

}  // namespace sonicsim
