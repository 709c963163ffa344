#include "models/io/json/json_reader.hpp"

#include <cmath>
#include <filesystem>
#include <set>
#include <vector>

#include "models/io/json/pointer_token.hpp"
#include "models/io/limits.hpp"
#include "models/io/units.hpp"

namespace sonicsim {
namespace {

std::string shown(const nlohmann::json& value) {
  return printable(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 60);
}

// Where the parser is, as a JSON pointer, and the keys seen in each enclosing object.
class ParsePosition {
 public:
  void open(bool array) { frames_.push_back({array, 0, {}, {}}); }
  void close() {
    frames_.pop_back();
    value_done();
  }
  void value_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  // False if the current object already has this key.
  bool key(const std::string& name) {
    frames_.back().key = name;
    return frames_.back().keys.insert(name).second;
  }
  std::size_t depth() const { return frames_.size(); }
  std::string pointer() const {
    std::string out;
    for (const Frame& f : frames_) out += "/" + (f.array ? std::to_string(f.index) : pointer_token(f.key));
    return out;
  }

 private:
  struct Frame {
    bool array;
    std::size_t index;
    std::string key;
    std::set<std::string> keys;
  };
  std::vector<Frame> frames_;
};

// nlohmann's DOM parser with the checks of ParsePosition on the way. (Its callback parser would do the
// same, but in 3.11 its end_object scans the enclosing array for discarded values: an array of n
// objects costs O(n^2).)
class CheckedDomParser {
 public:
  using json = nlohmann::json;
  CheckedDomParser(json& result, const std::string& file) : dom_(result, true), file_(file) {}

  bool null() { return scalar(dom_.null()); }
  bool boolean(bool v) { return scalar(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) { return scalar(dom_.number_integer(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(dom_.number_unsigned(v)); }
  bool number_float(json::number_float_t v, const json::string_t& text) { return scalar(dom_.number_float(v, text)); }
  bool string(json::string_t& v) { return scalar(dom_.string(v)); }
  bool binary(json::binary_t& v) { return scalar(dom_.binary(v)); }
  bool start_object(std::size_t n) { return open(false) && dom_.start_object(n); }
  bool start_array(std::size_t n) { return open(true) && dom_.start_array(n); }
  bool key(json::string_t& name) {
    if (!position_.key(name))
      throw InputError(file_, position_.pointer(),
                       "duplicate key \"" + name + "\" (each key may appear once in an object)");
    return dom_.key(name);
  }
  bool end_object() {
    position_.close();
    return dom_.end_object();
  }
  bool end_array() {
    position_.close();
    return dom_.end_array();
  }
  bool parse_error(std::size_t at, const std::string& token, const nlohmann::detail::exception& e) {
    return dom_.parse_error(at, token, e);
  }

 private:
  bool scalar(bool ok) {
    position_.value_done();
    return ok;
  }
  bool open(bool array) {
    if (position_.depth() >= static_cast<std::size_t>(kMaxJsonDepth))
      throw InputError(file_, position_.pointer(),
                       "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    position_.open(array);
    return true;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const std::string& file_;
  ParsePosition position_;
};

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& file) {
  using nlohmann::json;
  json result;
  CheckedDomParser parser(result, file);
  try {
    json::sax_parse(text, &parser);
  } catch (const json::exception& e) {
    std::string message = e.what();
    const auto pos = message.find("] ");  // drop nlohmann's "[json.exception.parse_error.101] " prefix
    if (pos != std::string::npos) message = message.substr(pos + 2);
    throw InputError(file, "", "invalid JSON: " + message);
  }
  return result;
}

nlohmann::json read_json_file(const std::string& path, std::size_t max_bytes) {
  return parse_json_text(read_input_file(path, max_bytes), path);
}

std::string path_beside(const std::string& file, const std::string& written) {
  const std::filesystem::path path(written);
  if (path.is_absolute()) return path.lexically_normal().string();
  return (std::filesystem::path(file).parent_path() / path).lexically_normal().string();
}

void JsonNode::fail(const std::string& message) const { throw InputError(file_, pointer_, message); }

const char* JsonNode::type_name() const { return value_->type_name(); }

std::string JsonNode::child_pointer(const std::string& key) const { return pointer_ + "/" + pointer_token(key); }

void JsonNode::require_object() const {
  if (!value_->is_object()) fail(std::string("expected an object, got ") + type_name() + " " + shown(*value_));
}

void JsonNode::allow_only(std::initializer_list<std::string_view> keys) const { allow_only(keys.begin(), keys.end()); }

void JsonNode::allow_only(const std::vector<std::string_view>& keys) const {
  allow_only(keys.data(), keys.data() + keys.size());
}

void JsonNode::allow_only(const std::string_view* begin, const std::string_view* end) const {
  require_object();
  for (const auto& [key, _] : value_->items()) {
    bool known = false;
    for (const auto* allowed = begin; allowed != end; ++allowed) known = known || *allowed == key;
    if (!known) {
      std::string list;
      for (const auto* allowed = begin; allowed != end; ++allowed)
        list += (list.empty() ? "" : ", ") + std::string(*allowed);
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
  if (!value_->is_number_integer()) fail(std::string("expected an integer, got ") + type_name() + " " + shown(*value_));
  const std::int64_t x = value_->get<std::int64_t>();
  if (x < min) fail("expected an integer >= " + std::to_string(min) + ", got " + shown(*value_));
  return x;
}

double JsonNode::number_in(double min, double max) const {
  const double x = number();
  if (!(x >= min && x <= max))
    fail("expected a number from " + shown(min) + " to " + shown(max) + ", got " + shown(*value_));
  return x;
}

std::uint64_t JsonNode::unsigned_integer() const {
  if (value_->is_number_unsigned()) return value_->get<std::uint64_t>();
  return static_cast<std::uint64_t>(integer_at_least(0));
}

int JsonNode::int_at_least(int min) const {
  const std::int64_t x = integer_at_least(min);
  if (x > 2'000'000'000) fail("expected an integer below 2e9, got " + shown(*value_));
  return static_cast<int>(x);
}

int JsonNode::int_in(int min, int max) const {
  const std::int64_t x = integer_at_least(min);
  if (x > max)
    fail("expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + shown(*value_));
  return static_cast<int>(x);
}

std::string JsonNode::name() const {
  const std::string text = string();
  if (text.empty() || text.size() > 128) fail("expected a name of 1 to 128 characters, got \"" + text + "\"");
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      fail("expected a name without control characters (newlines, tabs, escapes), got \"" + text + "\"");
  return text;
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

double JsonNode::duration_s() const {
  const double t = parse_unit_string(*this, units::parse_duration_s);
  if (t > limits::kMaxDurationS) fail("expected a duration of at most 1e8 s (about 3 years), got " + shown(*value_));
  return t;
}

double JsonNode::positive_duration_s() const {
  const double t = duration_s();
  if (!(t > 0)) fail("expected a positive duration, got " + shown(*value_));
  return t;
}

double JsonNode::bytes() const {
  const double b = parse_unit_string(*this, units::parse_bytes);
  if (b > limits::kMaxBytes) fail("expected a data size of at most 1PB, got " + shown(*value_));
  return b;
}

double JsonNode::bandwidth_Bps() const {
  const double bw = parse_unit_string(*this, units::parse_bandwidth_Bps);
  if (!(bw >= limits::kMinBandwidthBps && bw <= limits::kMaxBandwidthBps))
    fail("expected a bandwidth from 1bps to 8Pbps, got " + shown(*value_));
  return bw;
}

}  // namespace sonicsim
