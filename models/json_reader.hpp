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

namespace sonicsim {

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& pointer, const std::string& message)
      : std::runtime_error(file + ": " + (pointer.empty() ? "/" : pointer) + ": " + message),
        file_(file),
        pointer_(pointer.empty() ? "/" : pointer) {}
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }

 private:
  std::string file_;
  std::string pointer_;
};

// Reads and parses a JSON file; syntax errors become an InputError with line and column.
nlohmann::json read_json_file(const std::string& path);

// A path written in a file, resolved against that file's directory unless it is absolute.
std::string path_beside(const std::string& file, const std::string& written);

class JsonNode {
 public:
  JsonNode(const nlohmann::json& value, std::string pointer, std::string file)
      : value_(&value), pointer_(std::move(pointer)), file_(std::move(file)) {}

  const std::string& pointer() const { return pointer_; }
  const nlohmann::json& raw() const { return *value_; }

  // Objects. `allow_only` makes any key outside the list an error (typos must not pass silently).
  void allow_only(std::initializer_list<std::string_view> keys) const;
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
  std::int64_t integer_at_least(std::int64_t min) const;
  int int_at_least(int min) const;
  double duration_s() const;
  double positive_duration_s() const;
  double bytes() const;
  double bandwidth_Bps() const;  // strictly positive

  [[noreturn]] void fail(const std::string& message) const;

 private:
  void require_object() const;
  const char* type_name() const;
  std::string child_pointer(const std::string& key) const;

  const nlohmann::json* value_;
  std::string pointer_;
  std::string file_;
};

}  // namespace sonicsim
