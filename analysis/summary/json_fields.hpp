#pragma once
// The two directions of a JSON field list. A document's layout is written once, as a function
// template over the direction that names each key beside the member it holds:
//
//   template <class Io, class S>  // S: the struct, const when writing
//   void fields(Io& io, S& s) {
//     io.field("count", s.count);
//     io.object("time_s", [&](auto& t) { t.field("mean", s.mean_s); });
//     io.section("jobs", s.jobs, [](auto& j, auto& jobs) { j.field("done", jobs.done); });
//   }
//
// JsonWriter walks it to build the document from the struct, JsonReader to fill the struct from the
// document, so the two cannot disagree. Keys are device_key() patterns ("{d}_hours").
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/summary/device_keys.hpp"
#include "models/io/input_error.hpp"

namespace sonicsim {

class JsonWriter {
 public:
  JsonWriter(nlohmann::json& out, DeviceNaming naming) : out_(out), naming_(naming) {}

  // A number, string or boolean. An unset optional is null.
  template <class T>
  void field(std::string_view key, const T& value) {
    slot(key) = value;
  }
  template <class T>
  void field(std::string_view key, const std::optional<T>& value) {
    slot(key) = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  }
  // An object of fields(JsonWriter&) that have no struct of their own.
  template <class Fields>
  void object(std::string_view key, Fields&& fields) {
    JsonWriter inner(slot(key) = nlohmann::json::object(), naming_);
    fields(inner);
  }
  // An object of fields(JsonWriter&, const T&), absent when `value` is unset.
  template <class T, class Fields>
  void section(std::string_view key, const std::optional<T>& value, Fields&& fields) {
    if (value) write_object(slot(key), *value, fields);
  }
  // The same, null when unset.
  template <class T, class Fields>
  void nullable(std::string_view key, const std::optional<T>& value, Fields&& fields) {
    if (value)
      write_object(slot(key), *value, fields);
    else
      slot(key) = nullptr;
  }
  // An array of objects, one per element.
  template <class T, class Fields>
  void list(std::string_view key, const std::vector<T>& values, Fields&& fields) {
    nlohmann::json& array = slot(key) = nlohmann::json::array();
    for (const T& v : values) write_object(array.emplace_back(), v, fields);
  }
  // An array of numbers or strings.
  template <class T>
  void array(std::string_view key, const std::vector<T>& values) {
    nlohmann::json& array = slot(key) = nlohmann::json::array();
    for (const T& v : values) array.push_back(v);
  }
  // A value computed from other fields (`value()`), for readers of the document: not read back.
  template <class Value>
  void derived(std::string_view key, Value&& value) {
    slot(key) = value();
  }
  // The same value in every document: not read back.
  void constant(std::string_view key, const nlohmann::json& value) { slot(key) = value; }

 private:
  nlohmann::json& slot(std::string_view key) { return out_[device_key(key, naming_)]; }
  template <class T, class Fields>
  void write_object(nlohmann::json& into, const T& value, Fields& fields) {
    JsonWriter inner(into = nlohmann::json::object(), naming_);
    fields(inner, value);
  }

  nlohmann::json& out_;
  DeviceNaming naming_;
};

// Reads what JsonWriter wrote. A missing key or a value of the wrong type is an InputError naming
// the key's JSON pointer in `document` (the file's name, or what the document is).
class JsonReader {
 public:
  JsonReader(const nlohmann::json& in, DeviceNaming naming, std::string document, std::string pointer = "")
      : in_(in), naming_(naming), document_(std::move(document)), pointer_(std::move(pointer)) {}

  template <class T>
  void field(std::string_view key, T& value) {
    const auto [node, pointer] = member(key);
    value = scalar<T>(node, pointer);
  }
  template <class T>
  void field(std::string_view key, std::optional<T>& value) {
    const auto [node, pointer] = member(key);
    value = node.is_null() ? std::nullopt : std::optional<T>(scalar<T>(node, pointer));
  }
  template <class Fields>
  void object(std::string_view key, Fields&& fields) {
    const auto [node, pointer] = member(key);
    JsonReader inner = nested(node, pointer);
    fields(inner);
  }
  template <class T, class Fields>
  void section(std::string_view key, std::optional<T>& value, Fields&& fields) {
    value.reset();
    if (in_.contains(device_key(key, naming_))) read_object(key, value.emplace(), fields);
  }
  template <class T, class Fields>
  void nullable(std::string_view key, std::optional<T>& value, Fields&& fields) {
    value.reset();
    if (!member(key).first.is_null()) read_object(key, value.emplace(), fields);
  }
  template <class T, class Fields>
  void list(std::string_view key, std::vector<T>& values, Fields&& fields) {
    const auto [node, pointer] = member(key);
    if (!node.is_array()) fail(pointer, "expected an array");
    values.clear();
    for (std::size_t i = 0; i < node.size(); ++i) {
      JsonReader inner = nested(node[i], pointer + "/" + std::to_string(i));
      fields(inner, values.emplace_back());
    }
  }
  template <class T>
  void array(std::string_view key, std::vector<T>& values) {
    const auto [node, pointer] = member(key);
    if (!node.is_array()) fail(pointer, "expected an array");
    values.clear();
    for (std::size_t i = 0; i < node.size(); ++i)
      values.push_back(scalar<T>(node[i], pointer + "/" + std::to_string(i)));
  }
  template <class Value>
  void derived(std::string_view, Value&&) {}
  void constant(std::string_view, const nlohmann::json&) {}

 private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw InputError(document_, pointer, message);
  }
  std::pair<const nlohmann::json&, std::string> member(std::string_view pattern) const {
    const std::string key = device_key(pattern, naming_);
    const std::string pointer = pointer_ + "/" + key;
    const auto found = in_.find(key);
    if (found == in_.end()) fail(pointer, "missing");
    return {*found, pointer};
  }
  JsonReader nested(const nlohmann::json& node, const std::string& pointer) const {
    if (!node.is_object()) fail(pointer, "expected an object");
    return JsonReader(node, naming_, document_, pointer);
  }
  template <class T, class Fields>
  void read_object(std::string_view key, T& value, Fields& fields) {
    const auto [node, pointer] = member(key);
    JsonReader inner = nested(node, pointer);
    fields(inner, value);
  }

  template <class T>
  T scalar(const nlohmann::json& node, const std::string& pointer) const {
    if constexpr (std::is_same_v<T, bool>) {
      if (!node.is_boolean()) fail(pointer, "expected true or false");
      return node.get<bool>();
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!node.is_string()) fail(pointer, "expected a string");
      return node.get<std::string>();
    } else if constexpr (std::is_integral_v<T>) {
      const bool fits = node.is_number_unsigned()  ? std::in_range<T>(node.get<std::uint64_t>())
                        : node.is_number_integer() ? std::in_range<T>(node.get<std::int64_t>())
                                                   : false;
      if (!fits) fail(pointer, "expected an integer");
      return node.get<T>();
    } else {
      static_assert(std::is_same_v<T, double>);
      // JSON has no NaN or infinity: nlohmann writes them as null.
      if (node.is_null()) return std::numeric_limits<double>::quiet_NaN();
      if (!node.is_number()) fail(pointer, "expected a number");
      return node.get<double>();
    }
  }

  const nlohmann::json& in_;
  DeviceNaming naming_;
  std::string document_;
  std::string pointer_;
};

}  // namespace sonicsim
