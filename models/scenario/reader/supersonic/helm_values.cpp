#include "models/scenario/reader/supersonic/helm_values.hpp"

namespace sonicsim::supersonic {

nlohmann::json coalesce_values(const nlohmann::json& file_values, const nlohmann::json& defaults) {
  if (!file_values.is_object() || !defaults.is_object()) return file_values;
  nlohmann::json out = file_values;
  for (const auto& [key, default_value] : defaults.items()) {
    const auto given = out.find(key);
    if (given == out.end())
      out[key] = default_value;
    else if (given->is_null())
      out.erase(given);
    else if (given->is_object() && default_value.is_object())
      *given = coalesce_values(*given, default_value);
    // else: the file's value stands (Helm warns when a table meets a non-table, and keeps the file's)
  }
  return out;
}

nlohmann::json merge_over(const nlohmann::json& base, const nlohmann::json& over) {
  if (!base.is_object() || !over.is_object()) return over;
  nlohmann::json out = base;
  for (const auto& [key, value] : over.items()) {
    const auto existing = out.find(key);
    out[key] = existing != out.end() ? merge_over(*existing, value) : value;
  }
  return out;
}

}  // namespace sonicsim::supersonic
