// YAML read as Helm reads a values file (go-yaml v2 under sigs.k8s.io/yaml), into JSON; the
// expected values are go-yaml v2's resolve.go and decode.go, restated in yaml_reader.hpp.
#include <doctest/doctest.h>

#include <string>

#include "models/io/yaml/yaml_reader.hpp"
#include "tests/support/input_failure.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

json yaml(const std::string& text) { return parse_yaml_text(text, "v.yaml"); }

test::Failure yaml_refusal(const std::string& text) {
  return test::failure_of([&] { parse_yaml_text(text, "v.yaml"); });
}

}  // namespace

TEST_CASE("plain scalars resolve as go-yaml v2 resolves them; quoted and block scalars stay strings") {
  const json v = yaml(
      "a: yes\nb: Off\nc: False\nd: ~\ne:\nf: 0x1F\ng: 0o17\nh: 017\ni: 1_000\nj: -42\nk: 0.25\nl: .5\n"
      "m: 1e3\nn: \"20\"\no: '0.01'\np: 5s\nq: 26.04-py3\nr: 1e999\ns: 08\nt: |\n  two\n  lines\nu: "
      "18446744073709551615\n");
  CHECK(v["a"] == true);
  CHECK(v["b"] == false);
  CHECK(v["c"] == false);
  CHECK(v["d"].is_null());
  CHECK(v["e"].is_null());
  CHECK(v["f"] == 31);
  CHECK(v["g"] == 15);
  CHECK(v["h"] == 15);  // a leading 0 is octal (Go's ParseInt with base 0)
  CHECK(v["i"] == 1000);
  CHECK(v["j"] == -42);
  CHECK(v["k"] == 0.25);
  CHECK(v["l"] == 0.5);
  CHECK(v["m"] == 1000.0);
  CHECK(v["n"] == "20");
  CHECK(v["o"] == "0.01");
  CHECK(v["p"] == "5s");
  CHECK(v["q"] == "26.04-py3");
  CHECK(v["r"] == "1e999");  // ParseFloat fails on overflow, and v2 keeps the text
  CHECK(v["s"] == 8.0);      // not octal, but yamlStyleFloat's form
  CHECK(v["t"] == "two\nlines\n");
  CHECK(v["u"].is_number_unsigned());
  CHECK(yaml("").is_null());
  CHECK(yaml("# only a comment\n").is_null());
}

TEST_CASE("tags choose the type, and a value not of its tag is refused") {
  const json v = yaml("a: !!str 5\nb: !!int 7\nc: !!float 1\nd: !!bool yes\n");
  CHECK(v["a"] == "5");
  CHECK(v["b"] == 7);
  CHECK(v["c"] == 1);
  CHECK(v["d"] == true);
  CHECK(yaml_refusal("a: !!int five\n").where == "/a");
  CHECK(yaml_refusal("a: !!binary aGVsbG8=\n").message.find("unsupported YAML tag") != std::string::npos);
  CHECK(yaml_refusal("a: !custom 3\n").where == "/a");
  CHECK(yaml_refusal("a: !!set {x: null}\n").where == "/a");
}

TEST_CASE("a merge key copies the merged maps' keys in document order, as go-yaml v2 does") {
  const json v = yaml(
      "base: &b {x: 1, y: 2}\nother: &o {y: 20, z: 30}\n"
      "after: {<<: *b, y: 3}\n"   // the key after the merge wins
      "before: {y: 3, <<: *b}\n"  // v2: the merge, coming later, wins
      "list: {<<: [*b, *o]}\n"    // of a list, the first map wins
      "quoted: {'<<': 1}\n");     // a quoted << is a key like any other
  CHECK(v["after"] == json{{"x", 1}, {"y", 3}});
  CHECK(v["before"] == json{{"x", 1}, {"y", 2}});
  CHECK(v["list"] == json{{"x", 1}, {"y", 2}, {"z", 30}});
  CHECK(v["quoted"] == json{{"<<", 1}});
  CHECK(yaml_refusal("a: {<<: 3}\n").where == "/a/<<");
}

TEST_CASE("what Helm would pass silently or cannot mean is refused, naming the file and the key path") {
  const test::Failure duplicate = yaml_refusal("keda:\n  maxReplicaCount: 2\n  maxReplicaCount: 11\n");
  CHECK(duplicate.file == "v.yaml");
  CHECK(duplicate.where == "/keda/maxReplicaCount");
  CHECK(duplicate.message.find("duplicate key") != std::string::npos);
  CHECK(yaml_refusal("a:\n  b: .nan\n").where == "/a/b");
  CHECK(yaml_refusal("a: [1, -.inf]\n").where == "/a/1");
  CHECK(yaml_refusal("a: \"\xff\xfe\"\n").where == "line 1, column 5");  // before yaml-cpp reads it
  CHECK(yaml_refusal("\xc3\x28: 1\n").message.find("UTF-8") != std::string::npos);
  CHECK(yaml_refusal("? [1, 2]\n: 3\n").message.find("plain key") != std::string::npos);
  CHECK(yaml_refusal("a: 1\n---\nb: 2\n").message.find("one YAML document") != std::string::npos);
  CHECK(yaml_refusal("a/b: {c~d: .inf}\n").where == "/a~1b/c~0d");
}

TEST_CASE("a syntax error names its line and column; a tab indenting the line is named as the cause") {
  const test::Failure f = yaml_refusal("a: 1\nb: [1, 2\n");
  CHECK(f.where == "line 3, column 1");  // the flow sequence is still open at the end
  CHECK(f.message.rfind("invalid YAML", 0) == 0);
  const test::Failure tab = yaml_refusal("triton:\n  resources: {}\n\treplicas: 2\n");
  CHECK(tab.where == "line 3, column 1");
  CHECK(tab.message == "invalid YAML: a tab in the indentation (YAML indents with spaces only)");
  CHECK(yaml("a:\t2\nb: \"x\ty\"\n") == json{{"a", 2}, {"b", "x\ty"}});  // a tab elsewhere is white space
}

TEST_CASE("a ',' where a document should start is a syntax error at the ',', not an endless run of null documents") {
  // yaml-cpp 0.7 leaves the ',' unread and starts every later document on it; go-yaml's parser
  // stops there with "did not find expected node content".
  for (const auto& [text, where] : {std::pair{",\n", "line 1, column 1"},
                                    {"---\n,\n", "line 2, column 1"},
                                    {"&x ,\n", "line 1, column 4"},
                                    {"- a\n,\n", "line 2, column 1"},
                                    {"|\n  text\n,\n", "line 3, column 1"}}) {
    const test::Failure f = yaml_refusal(text);
    CHECK(f.where == where);
    CHECK(f.message == "invalid YAML: did not find expected node content");
  }
  // Documents that take their tokens are counted as before: none is null, two are refused.
  CHECK(yaml("") == json(nullptr));
  CHECK(yaml("# only a comment\n") == json(nullptr));
  CHECK(yaml("---\na: 1\n...\n") == json{{"a", 1}});
  CHECK(yaml_refusal("---\n---\n---\n").message.rfind("expected one YAML document, got 3", 0) == 0);
}

TEST_CASE("the text is UTF-8 without control characters, as go-yaml's reader takes it; the first bad byte is named") {
  const test::Failure nul = yaml_refusal(std::string("a: 1\nb: x\0y\n", 12));
  CHECK(nul.where == "line 2, column 5");
  CHECK(nul.message == "expected text, got the control character \\x00");
  CHECK(yaml_refusal("a: 1\n# caf\xc3\n").where == "line 2, column 6");  // in a comment too
  CHECK(yaml_refusal("a: 1\n# caf\xc3\n").message == "expected UTF-8 text, got the byte \\xC3");
  CHECK(yaml_refusal("a: \x1b[31m\n").where == "line 1, column 4");
  CHECK(yaml("\xef\xbb\xbf"
             "a: caf\xc3\xa9\r\n") == json{{"a", "caf\xc3\xa9"}});  // a BOM, CR LF and UTF-8 are fine
}

TEST_CASE("nesting and alias expansion are bounded: a few bytes cannot become a billion values") {
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "[";
  CHECK(yaml_refusal(deep + std::string(100, ']')).message.find("nested more than 64") != std::string::npos);
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c)
    bomb += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" +
            char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) +
            ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
  CHECK(yaml_refusal(bomb).message.find("aliases are expanded") != std::string::npos);
  CHECK(yaml_refusal("a: &a [*a]\n").message.find("nested more than 64") != std::string::npos);  // an alias to itself
  // yaml-cpp's own recursion limit (500 levels) ends a deeper document before it is converted.
  const test::Failure parser = yaml_refusal("a: " + std::string(100000, '[') + std::string(100000, ']'));
  CHECK(parser.where.rfind("line 1, column ", 0) == 0);
  CHECK(parser.message == "invalid YAML: nested more than 64 levels deep");
  std::string block;
  for (int i = 0; i < 600; ++i) block += std::string(static_cast<std::size_t>(i), ' ') + "k:\n";
  CHECK(yaml_refusal(block).message.find("nested more than 64 levels deep") != std::string::npos);
}
