#pragma once
// A read-only view of a JSON value that knows where it is (file and JSON pointer), so every
// complaint about the input can say exactly where and what was expected.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/io/input_error.hpp"
#include "models/io/input_file.hpp"
#include "models/io/json/choice.hpp"
#include "models/io/message_text.hpp"

namespace sonicsim {

// JSON inputs may nest at most this deep; no sonicsim format needs more than 8.
inline constexpr int kMaxJsonDepth = 64;

// Parses JSON text. Syntax errors, a key repeated in one object (which value would win is
// unspecified), nesting deeper than kMaxJsonDepth and numbers beyond a double's range are
// InputErrors naming the file and the line and column or JSON pointer.
nlohmann::json parse_json_text(const std::string& text, const std::string& file);

// Reads (at most `max_bytes`, see input_file.hpp) and parses a JSON file.
nlohmann::json read_json_file(const std::string& path, std::size_t max_bytes = kMaxConfigFileBytes);

// A path written in a file, resolved against that file's directory unless it is absolute.
std::string path_beside(const std::string& file, const std::string& written);

class JsonNode {
 public:
  JsonNode(const nlohmann::json& value, std::string pointer, std::string file)
      : value_(&value), pointer_(std::move(pointer)), file_(std::move(file)) {}

  const std::string& pointer() const { return pointer_; }
  const std::string& file() const { return file_; }
  const nlohmann::json& raw() const { return *value_; }

  // Objects. `allow_only` makes any key outside the list an error (typos must not pass silently).
  void allow_only(std::initializer_list<std::string_view> keys) const;
  void allow_only(const std::vector<std::string_view>& keys) const;
  bool has(const std::string& key) const;
  JsonNode at(const std::string& key) const;  // required member
  std::optional<JsonNode> find(const std::string& key) const;
  std::vector<std::string> keys() const;

  // Arrays.
  std::vector<JsonNode> elements() const;
  std::vector<JsonNode> non_empty_elements() const;

  // Scalars.
  std::string string() const;
  bool boolean() const;
  double number() const;
  double number_at_least(double min) const;
  double number_positive() const;
  double number_in(double min, double max) const;
  std::int64_t integer_at_least(std::int64_t min) const;
  std::uint64_t unsigned_integer() const;  // 0 to 2^64 - 1
  int int_at_least(int min) const;         // and below 2e9
  int int_in(int min, int max) const;
  // Quantities with units, bounded by models/io/limits.hpp.
  double duration_s() const;
  double positive_duration_s() const;
  double bytes() const;
  double bandwidth_Bps() const;  // at least 1 bit/s
  // A name the outputs show: non-empty, at most 128 bytes, no control characters.
  std::string name() const;
  // One of the names of a choice table (choice.hpp): its value (for a table of plain names, the
  // name). Otherwise fails with `expected "a", "b" or "c" (what), got "x"`, the parenthesis only
  // when `what` is given.
  template <class Table>
  auto choice(const Table& table, std::string_view what = {}) const;

  [[noreturn]] void fail(const std::string& message) const;

 private:
  void require_object() const;
  void allow_only(const std::string_view* begin, const std::string_view* end) const;
  const char* type_name() const;
  std::string child_pointer(const std::string& key) const;

  const nlohmann::json* value_;
  std::string pointer_;
  std::string file_;
};

template <class Table>
auto JsonNode::choice(const Table& table, std::string_view what) const {
  const std::string text = string();
  for (const auto& entry : table)
    if (name_of(entry) == text) return value_of(entry);
  fail("expected " + choice_list(table) + (what.empty() ? "" : " (" + std::string(what) + ")") + ", got \"" + text +
       "\"");
}

}  // namespace sonicsim
