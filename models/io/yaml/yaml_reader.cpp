#include "models/io/yaml/yaml_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/json/pointer_token.hpp"
#include "models/io/message_text.hpp"
#include "models/io/text_format.hpp"
#include "models/io/yaml/yaml_documents.hpp"

namespace sonicsim {
namespace {

using nlohmann::json;

const std::string kTagPrefix = "tag:yaml.org,2002:";

bool one_of(std::string_view text, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (text == n) return true;
  return false;
}

bool all_digits(std::string_view text, int base) {
  if (text.empty()) return false;
  for (char c : text) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    if (d >= base) return false;
  }
  return true;
}

// Go's strconv.ParseInt(text, 0, 64), then ParseUint(text, 0, 64), as go-yaml v2 tries them.
std::optional<json> go_integer(std::string_view text) {
  bool negative = false;
  bool signed_text = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    signed_text = true;
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    base = 16;
  else if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'O'))
    base = 8;
  else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'))
    base = 2;
  if (base != 10)
    text.remove_prefix(2);
  else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  if (!all_digits(text, base)) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    const int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    if (value > (UINT64_MAX - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base)) return std::nullopt;
    value = value * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  if (!negative && value <= static_cast<std::uint64_t>(INT64_MAX)) return json(static_cast<std::int64_t>(value));
  if (negative && value <= static_cast<std::uint64_t>(INT64_MAX) + 1)
    return json(value == static_cast<std::uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<std::int64_t>(value));
  if (!signed_text) return json(value);  // ParseUint takes no sign
  return std::nullopt;
}

// go-yaml v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool yaml_style_float(std::string_view t) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > from;
  };
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < t.size() && t[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

class Converter {
 public:
  explicit Converter(std::string file) : file_(std::move(file)) {}

  json convert(const YAML::Node& node, const std::string& pointer, int depth) {
    if (++values_ > kMaxYamlValues)
      fail(pointer, "more than " + std::to_string(kMaxYamlValues) +
                        " values once the aliases are expanded (a values file has a few hundred)");
    if (depth > kMaxJsonDepth) fail(pointer, "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    switch (node.Type()) {
      case YAML::NodeType::Map: return map(node, pointer, depth);
      case YAML::NodeType::Sequence: {
        check_collection_tag(node, pointer, "seq");
        json out = json::array();
        std::size_t i = 0;
        for (const YAML::Node& element : node)
          out.push_back(convert(element, pointer + "/" + std::to_string(i++), depth + 1));
        return out;
      }
      case YAML::NodeType::Scalar: return scalar(node, pointer);
      default: return nullptr;  // Null (and Undefined, which a parsed document does not hold)
    }
  }

 private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw InputError(file_, pointer, message);
  }

  void check_collection_tag(const YAML::Node& node, const std::string& pointer, const std::string& kind) const {
    const std::string& tag = node.Tag();
    if (!tag.empty() && tag != "?" && tag != "!" && tag != kTagPrefix + kind)
      fail(pointer, "unsupported YAML tag \"" + tag + "\" (a values file holds plain maps, lists and scalars)");
  }

  std::string key_of(const YAML::Node& key, const std::string& pointer) const {
    if (!key.IsScalar())
      fail(pointer, "expected a plain key, got a " + std::string(key.IsNull() ? "null" : "map or list") + " as a key");
    const std::string& text = key.Scalar();
    if (!valid_utf8(text)) fail(pointer, "expected UTF-8 text as a key, got \"" + text + "\"");
    return text;
  }

  // go-yaml v2 (decode.go, d.merge): the merged maps' keys are set where the merge key stands in
  // document order; of a list of maps, the first wins.
  void merge(const YAML::Node& value, json& out, const std::string& pointer, int depth) {
    std::vector<YAML::Node> maps;
    if (value.IsMap())
      maps.push_back(value);
    else if (value.IsSequence())
      for (std::size_t i = value.size(); i-- > 0;) maps.push_back(value[i]);
    else
      fail(pointer, "expected a map or a list of maps to merge (<<)");
    for (const YAML::Node& m : maps) {
      if (!m.IsMap()) fail(pointer, "expected a map or a list of maps to merge (<<)");
      const json merged = map(m, pointer, depth);
      for (const auto& [k, v] : merged.items()) out[k] = v;
    }
  }

  json map(const YAML::Node& node, const std::string& pointer, int depth) {
    check_collection_tag(node, pointer, "map");
    json out = json::object();
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      // A copy: yaml-cpp's iterator hands out a proxy, and a reference into it would dangle.
      const YAML::Node key = it->first;
      if (key.IsScalar() && key.Scalar() == "<<" && key.Tag() == "?") {
        merge(it->second, out, pointer + "/<<", depth + 1);
        continue;
      }
      const std::string name = key_of(key, pointer);
      const std::string child = pointer + "/" + pointer_token(name);
      if (!seen.insert(name).second)
        fail(child, "duplicate key \"" + name + "\" (each key may appear once in a map; Helm would keep the last)");
      out[name] = convert(it->second, child, depth + 1);
    }
    return out;
  }

  json scalar(const YAML::Node& node, const std::string& pointer) const {
    const std::string& text = node.Scalar();
    if (!valid_utf8(text)) fail(pointer, "expected UTF-8 text, got \"" + text + "\"");
    const std::string& tag = node.Tag();
    if (tag == "!" || tag == kTagPrefix + "str") return text;  // quoted, block, or tagged a string
    const json value = resolve(text, pointer);
    if (tag == "?" || tag.empty()) return value;
    if ((tag == kTagPrefix + "int" && value.is_number_integer()) ||
        (tag == kTagPrefix + "float" && value.is_number()) || (tag == kTagPrefix + "bool" && value.is_boolean()) ||
        (tag == kTagPrefix + "null" && value.is_null()))
      return value;
    if (tag.rfind(kTagPrefix, 0) == 0 && one_of(tag.substr(kTagPrefix.size()), {"int", "float", "bool", "null"}))
      fail(pointer, "\"" + text + "\" is not a value of its tag " + tag);
    fail(pointer, "unsupported YAML tag \"" + tag + "\" (a values file holds plain maps, lists and scalars)");
  }

  // go-yaml v2's resolve() of a plain scalar.
  json resolve(const std::string& in, const std::string& pointer) const {
    if (one_of(in, {"", "~", "null", "Null", "NULL"})) return nullptr;
    if (one_of(in, {"true", "True", "TRUE", "y", "Y", "yes", "Yes", "YES", "on", "On", "ON"})) return true;
    if (one_of(in, {"false", "False", "FALSE", "n", "N", "no", "No", "NO", "off", "Off", "OFF"})) return false;
    if (one_of(in,
               {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"}))
      fail(pointer, "expected a finite number, got " + in + " (sonicsim reads no NaN or infinite value)");
    const char first = in[0];
    const bool numeric_hint = first == '+' || first == '-' || (first >= '0' && first <= '9');
    if (!numeric_hint && first != '.') return in;
    std::string plain;
    for (char c : in)
      if (c != '_') plain += c;
    if (numeric_hint)
      if (auto integer = go_integer(plain)) return *integer;
    if ((numeric_hint && yaml_style_float(plain)) || (first == '.' && yaml_style_float(in))) {
      errno = 0;
      const double x = std::strtod((numeric_hint ? plain : in).c_str(), nullptr);
      if (errno != ERANGE && std::isfinite(x)) return x;  // Go's ParseFloat fails on overflow: a string
    }
    return in;
  }

  std::string file_;
  std::size_t values_ = 0;
};

std::string line_column(std::size_t line, std::size_t column) {
  return "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1);
}

// The line `index` (from 0) of `text`, without its end.
std::string_view line_of(std::string_view text, std::size_t index) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < index && start != std::string_view::npos; ++i) {
    start = text.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start > text.size()) return {};
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// go-yaml's reader (reader.go, yaml_parser_update_buffer) takes UTF-8 text without control
// characters other than tab, line feed and carriage return; so does this one, naming the first
// offending byte's line and column (a byte offset from 1) before yaml-cpp sees the text.
void check_text(std::string_view text, const std::string& file) {
  std::size_t line = 0;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view row = text.substr(start, end - start);
    const std::size_t bad = first_invalid_utf8(row);
    for (std::size_t i = 0; i < row.size() && i < bad; ++i) {
      const auto c = static_cast<unsigned char>(row[i]);
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F)
        throw InputError(file, line_column(line, i),
                         printf_string("expected text, got the control character \\x%02X", c));
    }
    if (bad != std::string_view::npos)
      throw InputError(
          file, line_column(line, bad),
          printf_string("expected UTF-8 text, got the byte \\x%02X", static_cast<unsigned char>(row[bad])));
    start = end + 1;
    ++line;
  }
}

// A parse error at `mark`: where a tab indents that line or the one before, the tab is the likely
// cause, and yaml-cpp's message ("illegal map value") does not say so.
[[noreturn]] void syntax_error(std::string_view text, const std::string& file, const YAML::Mark& mark,
                               const std::string& message) {
  if (mark.is_null()) throw InputError(file, "", "invalid YAML: " + message);
  const auto error_line = static_cast<std::size_t>(mark.line);
  for (std::size_t line = error_line > 0 ? error_line - 1 : 0; line <= error_line; ++line) {
    const std::string_view row = line_of(text, line);
    const std::size_t indent = row.find_first_not_of(" \t");
    const std::size_t tab = row.substr(0, indent).find('\t');
    if (tab != std::string_view::npos)
      throw InputError(file, line_column(line, tab),
                       "invalid YAML: a tab in the indentation (YAML indents with spaces only)");
  }
  throw InputError(file, line_column(error_line, static_cast<std::size_t>(mark.column)), "invalid YAML: " + message);
}

}  // namespace

json parse_yaml_text(const std::string& text, const std::string& file) {
  check_text(text, file);
  std::size_t documents = 0;
  YAML::Node document;
  try {
    documents = count_yaml_documents(text);
    if (documents == 1) document = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp stops at 500 levels of its own recursion and calls it a "bad file".
    throw InputError(file, e.mark.is_null() ? "" : line_column(e.mark.line, e.mark.column),
                     "invalid YAML: nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
  } catch (const YAML::Exception& e) {
    syntax_error(text, file, e.mark, e.msg.empty() ? std::string(e.what()) : e.msg);
  }
  if (documents == 0) return nullptr;
  if (documents > 1)
    throw InputError(
        file, "",
        "expected one YAML document, got " + std::to_string(documents) + " (a values file is one map of values)");
  return Converter(file).convert(document, "", 0);
}

json read_yaml_file(const std::string& path, std::size_t max_bytes) {
  return parse_yaml_text(read_input_file(path, max_bytes), path);
}

}  // namespace sonicsim
