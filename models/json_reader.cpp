#include "models/json_reader.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/units.hpp"

namespace sonicsim {
namespace {

// JSON pointer escaping (RFC 6901).
std::string escape_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string shown(const nlohmann::json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

}  // namespace

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    std::string message = e.what();
    const auto pos = message.find("] ");  // drop nlohmann's "[json.exception.parse_error.101] " prefix
    if (pos != std::string::npos) message = message.substr(pos + 2);
    throw InputError(path, "", "invalid JSON: " + message);
  }
}

std::string path_beside(const std::string& file, const std::string& written) {
  const std::filesystem::path path(written);
  if (path.is_absolute()) return path.lexically_normal().string();
  return (std::filesystem::path(file).parent_path() / path).lexically_normal().string();
}

void JsonNode::fail(const std::string& message) const { throw InputError(file_, pointer_, message); }

const char* JsonNode::type_name() const { return value_->type_name(); }

std::string JsonNode::child_pointer(const std::string& key) const { return pointer_ + "/" + escape_token(key); }

void JsonNode::require_object() const {
  if (!value_->is_object()) fail(std::string("expected an object, got ") + type_name() + " " + shown(*value_));
}

void JsonNode::allow_only(std::initializer_list<std::string_view> keys) const {
  require_object();
  for (const auto& [key, _] : value_->items()) {
    bool known = false;
    for (std::string_view allowed : keys) known = known || allowed == key;
    if (!known) {
      std::string list;
      for (std::string_view allowed : keys) list += (list.empty() ? "" : ", ") + std::string(allowed);
      throw InputError(file_, child_pointer(key), "unknown key \"" + key + "\" (allowed here: " + list + ")");
    }
  }
}

bool JsonNode::has(const std::string& key) const {
  require_object();
  return value_->contains(key);
}

JsonNode JsonNode::at(const std::string& key) const {
  require_object();
  const auto it = value_->find(key);
  if (it == value_->end()) throw InputError(file_, child_pointer(key), "missing required field \"" + key + "\"");
  return JsonNode(*it, child_pointer(key), file_);
}

std::optional<JsonNode> JsonNode::find(const std::string& key) const {
  require_object();
  const auto it = value_->find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return JsonNode(*it, child_pointer(key), file_);
}

std::vector<std::string> JsonNode::keys() const {
  require_object();
  std::vector<std::string> out;
  for (const auto& [key, _] : value_->items()) out.push_back(key);
  return out;
}

std::vector<JsonNode> JsonNode::elements() const {
  if (!value_->is_array()) fail(std::string("expected an array, got ") + type_name() + " " + shown(*value_));
  std::vector<JsonNode> out;
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], pointer_ + "/" + std::to_string(i), file_);
  return out;
}

std::vector<JsonNode> JsonNode::non_empty_elements() const {
  auto out = elements();
  if (out.empty()) fail("expected a non-empty array");
  return out;
}

std::string JsonNode::string() const {
  if (!value_->is_string()) fail(std::string("expected a string, got ") + type_name() + " " + shown(*value_));
  return value_->get<std::string>();
}

bool JsonNode::boolean() const {
  if (!value_->is_boolean()) fail(std::string("expected true or false, got ") + type_name() + " " + shown(*value_));
  return value_->get<bool>();
}

double JsonNode::number() const {
  if (!value_->is_number()) fail(std::string("expected a number, got ") + type_name() + " " + shown(*value_));
  const double x = value_->get<double>();
  if (!std::isfinite(x)) fail("expected a finite number");
  return x;
}

double JsonNode::number_at_least(double min) const {
  const double x = number();
  if (x < min) fail("expected a number >= " + shown(min) + ", got " + shown(*value_));
  return x;
}

double JsonNode::number_positive() const {
  const double x = number();
  if (!(x > 0)) fail("expected a positive number, got " + shown(*value_));
  return x;
}

std::int64_t JsonNode::integer_at_least(std::int64_t min) const {
  if (!value_->is_number_integer())
    fail(std::string("expected an integer, got ") + type_name() + " " + shown(*value_));
  const std::int64_t x = value_->get<std::int64_t>();
  if (x < min) fail("expected an integer >= " + std::to_string(min) + ", got " + shown(*value_));
  return x;
}

int JsonNode::int_at_least(int min) const {
  const std::int64_t x = integer_at_least(min);
  if (x > 2'000'000'000) fail("expected an integer below 2e9, got " + shown(*value_));
  return static_cast<int>(x);
}

namespace {
template <class Parse>
double parse_unit_string(const JsonNode& node, Parse parse) {
  if (!node.raw().is_string()) {
    // Re-use the unit parser's wording so the message shows an example of what is expected.
    try {
      parse(std::string_view{});
    } catch (const units::UnitError& e) {
      std::string msg = e.what();
      const auto got = msg.rfind(", got");
      if (got != std::string::npos) msg = msg.substr(0, got);
      node.fail(msg + ", got " + node.raw().type_name() + " " + shown(node.raw()));
    }
  }
  try {
    return parse(node.raw().get_ref<const std::string&>());
  } catch (const units::UnitError& e) {
    node.fail(e.what());
  }
}
}  // namespace

double JsonNode::duration_s() const { return parse_unit_string(*this, units::parse_duration_s); }

double JsonNode::positive_duration_s() const {
  const double t = duration_s();
  if (!(t > 0)) fail("expected a positive duration, got " + shown(*value_));
  return t;
}

double JsonNode::bytes() const { return parse_unit_string(*this, units::parse_bytes); }

double JsonNode::bandwidth_Bps() const {
  const double bw = parse_unit_string(*this, units::parse_bandwidth_Bps);
  if (!(bw > 0)) fail("expected a positive bandwidth, got " + shown(*value_));
  return bw;
}

}  // namespace sonicsim
