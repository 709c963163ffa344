#include "models/scenario/unknowns/declared_unknown.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include "models/io/json/json_reader.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim {
namespace {

// "2ms" -> (2, "ms"); "10" -> (10, ""); a bare JSON number -> (it, ""). False when neither.
bool number_and_unit(const nlohmann::json& v, double& number, std::string& unit) {
  if (v.is_number()) {
    number = v.get<double>();
    unit.clear();
    return std::isfinite(number);
  }
  if (!v.is_string()) return false;
  static const std::regex form(R"(^\s*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z/%]*)\s*$)");
  std::smatch m;
  const std::string text = v.get<std::string>();
  if (!std::regex_match(text, m, form)) return false;
  number = std::stod(m[1].str());
  unit = m[2].str();
  return std::isfinite(number);
}

std::string pointer_escape(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

RangeUnknown read_range(const nlohmann::json& node, const std::string& file, const std::string& at) {
  const nlohmann::json& ends = node.at("between");
  const auto fail = [&](const std::string& message) { throw InputError(file, at + "/between", message); };
  if (!ends.is_array() || ends.size() != 2)
    fail("expected two ends, [LOW, HIGH]: numbers, or numbers with one unit (\"2ms\", \"8ms\")");
  RangeUnknown r;
  std::string high_unit;
  if (!number_and_unit(ends[0], r.low, r.unit) || !number_and_unit(ends[1], r.high, high_unit))
    fail("expected two ends, [LOW, HIGH]: numbers, or numbers with one unit (\"2ms\", \"8ms\"), got " + ends.dump());
  if (r.unit != high_unit) fail("give both ends in one unit, got \"" + r.unit + "\" and \"" + high_unit + "\"");
  if (!(r.low < r.high)) fail("expected LOW below HIGH, got " + ends.dump());
  r.whole = ends[0].is_number_integer() && ends[1].is_number_integer();
  if (r.whole && (std::fabs(r.low) > 1e15 || std::fabs(r.high) > 1e15)) fail("whole numbers up to 1e15 only");
  if (const auto it = node.find("distribution"); it != node.end()) {
    const std::string shape = it->is_string() ? it->get<std::string>() : it->dump();
    if (shape == "uniform")
      r.shape = RangeUnknown::Shape::Uniform;
    else if (shape == "log-uniform")
      r.shape = RangeUnknown::Shape::LogUniform;
    else if (shape == "triangular")
      r.shape = RangeUnknown::Shape::Triangular;
    else
      throw InputError(file, at + "/distribution", "expected uniform, log-uniform or triangular, got " + it->dump());
  }
  if (r.shape == RangeUnknown::Shape::LogUniform && !(r.low > 0))
    fail("a log-uniform range needs LOW above 0, got " + ends.dump());
  if (const auto it = node.find("mode"); it != node.end()) {
    std::string unit;
    if (r.shape != RangeUnknown::Shape::Triangular)
      throw InputError(file, at + "/mode", "\"mode\" goes with \"distribution\": \"triangular\"");
    if (!number_and_unit(*it, r.mode, unit) || unit != r.unit || !(r.mode >= r.low && r.mode <= r.high))
      throw InputError(file, at + "/mode", "expected a value between the ends, in their unit, got " + it->dump());
  } else {
    r.mode = 0.5 * (r.low + r.high);
  }
  return r;
}

ChoiceUnknown read_choice(const nlohmann::json& node, const std::string& file, const std::string& at) {
  const nlohmann::json& list = node.at("one_of");
  if (!list.is_array() || list.size() < 2 || list.size() > 1000)
    throw InputError(file, at + "/one_of", "expected a list of 2 to 1000 alternatives, got " + list.dump());
  ChoiceUnknown c;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (is_declared_unknown(list[i]))
      throw InputError(file, at + "/one_of/" + std::to_string(i), "an alternative is a value, not itself an unknown");
    c.alternatives.push_back(list[i]);
  }
  return c;
}

DeclaredUnknown read_declaration(const nlohmann::json& node, const std::string& file, const std::string& at) {
  const bool range = node.contains("between");
  if (range && node.contains("one_of"))
    throw InputError(file, at, "a declared unknown is a range (\"between\") or alternatives (\"one_of\"), not both");
  for (const auto& [key, value] : node.items()) {
    const bool allowed =
        key == "why" || (range ? key == "between" || key == "distribution" || key == "mode" : key == "one_of");
    if (!allowed)
      throw InputError(file, at + "/" + pointer_escape(key),
                       std::string("unknown key in a declared unknown (expected ") +
                           (range ? "\"between\", \"distribution\", \"mode\", \"why\")" : "\"one_of\", \"why\")"));
  }
  DeclaredUnknown u;
  u.pointer = at;
  if (const auto it = node.find("why"); it != node.end()) {
    if (!it->is_string()) throw InputError(file, at + "/why", "expected a text: the source of the range");
    u.why = it->get<std::string>();
  }
  if (range)
    u.kind = read_range(node, file, at);
  else
    u.kind = read_choice(node, file, at);
  return u;
}

void find_in(const nlohmann::json& node, const std::string& at, const std::string& file,
             std::vector<DeclaredUnknown>& out) {
  if (is_declared_unknown(node)) {
    out.push_back(read_declaration(node, file, at));
    return;
  }
  if (node.is_object())
    for (const auto& [key, value] : node.items()) find_in(value, at + "/" + pointer_escape(key), file, out);
  else if (node.is_array())
    for (std::size_t i = 0; i < node.size(); ++i) find_in(node[i], at + "/" + std::to_string(i), file, out);
}

double range_quantile(const RangeUnknown& r, double u) {
  switch (r.shape) {
    case RangeUnknown::Shape::LogUniform: return r.low * std::pow(r.high / r.low, u);
    case RangeUnknown::Shape::Triangular: {
      const double width = r.high - r.low, left = (r.mode - r.low) / width;
      return u < left ? r.low + std::sqrt(u * width * (r.mode - r.low))
                      : r.high - std::sqrt((1 - u) * width * (r.high - r.mode));
    }
    case RangeUnknown::Shape::Uniform:
    default: return r.low + u * (r.high - r.low);
  }
}

nlohmann::json range_value(const RangeUnknown& r, double u) {
  if (r.whole) {
    // Whole numbers: the quantile over [LOW, HIGH + 1), rounded down: each as likely as its share.
    RangeUnknown wider = r;
    wider.high = r.high + 1;
    if (r.shape == RangeUnknown::Shape::Triangular) wider.mode = r.mode + 0.5;
    const double x = std::min(std::floor(range_quantile(wider, u)), r.high);
    return static_cast<std::int64_t>(std::max(x, r.low));
  }
  const double x = range_quantile(r, u);
  if (r.unit.empty()) return x;
  return printf_string("%.17g%s", x, r.unit.c_str());
}

}  // namespace

bool is_declared_unknown(const nlohmann::json& value) {
  return value.is_object() && (value.contains("between") || value.contains("one_of"));
}

std::vector<DeclaredUnknown> find_declared_unknowns(const nlohmann::json& document, const std::string& file) {
  std::vector<DeclaredUnknown> out;
  find_in(document, "", file, out);
  return out;
}

void refuse_declared_unknowns(const nlohmann::json& document, const std::string& file) {
  const std::vector<DeclaredUnknown> unknowns = find_declared_unknowns(document, file);
  if (unknowns.empty()) return;
  throw InputError(file, unknowns.front().pointer,
                   "a declared unknown (" + unknowns.front().describe() + ")" +
                       (unknowns.size() > 1 ? printf_string(", one of %zu", unknowns.size()) : std::string()) +
                       ": `run`, `sweep` and `plan` propagate declared unknowns; this command needs one value: --set " +
                       unknowns.front().pointer + "=VALUE");
}

nlohmann::json DeclaredUnknown::value_at(double u) const {
  u = std::clamp(u, 0.0, std::nextafter(1.0, 0.0));
  if (const auto* r = std::get_if<RangeUnknown>(&kind)) return range_value(*r, u);
  const auto& list = std::get<ChoiceUnknown>(kind).alternatives;
  return list[std::min(list.size() - 1, static_cast<std::size_t>(u * static_cast<double>(list.size())))];
}

nlohmann::json DeclaredUnknown::nominal() const {
  if (std::holds_alternative<ChoiceUnknown>(kind)) return std::get<ChoiceUnknown>(kind).alternatives.front();
  return value_at(0.5);
}

std::size_t DeclaredUnknown::alternatives() const {
  if (const auto* c = std::get_if<ChoiceUnknown>(&kind)) return c->alternatives.size();
  return 0;
}

std::string DeclaredUnknown::name() const {
  const auto last = pointer.rfind('/');
  std::string name = pointer.substr(last + 1);
  if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }) && last > 0) {
    const auto before = pointer.rfind('/', last - 1);
    name = pointer.substr(before + 1, last - before - 1) + "/" + name;
  }
  return name;
}

std::string DeclaredUnknown::describe() const {
  if (const auto* r = std::get_if<RangeUnknown>(&kind)) {
    std::string text = printf_string("between %.6g%s and %.6g%s", r->low, r->unit.c_str(), r->high, r->unit.c_str());
    if (r->shape == RangeUnknown::Shape::LogUniform) text += " (log-uniform)";
    if (r->shape == RangeUnknown::Shape::Triangular)
      text += printf_string(" (triangular, mode %.6g%s)", r->mode, r->unit.c_str());
    return text;
  }
  std::string text = "one of ";
  const auto& list = std::get<ChoiceUnknown>(kind).alternatives;
  for (std::size_t i = 0; i < list.size(); ++i) text += (i ? ", " : "") + list[i].dump();
  return text;
}

}  // namespace sonicsim
