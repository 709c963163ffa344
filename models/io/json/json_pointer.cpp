#include "models/io/json/json_pointer.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

#include "models/io/json/json_reader.hpp"

namespace sonicsim {

using nlohmann::json;

namespace {

// The reference tokens of a JSON pointer (RFC 6901), unescaped.
std::vector<std::string> pointer_tokens(const std::string& pointer, const std::string& file) {
  if (!pointer.empty() && pointer[0] != '/') throw InputError(file, pointer, "a JSON pointer starts with \"/\"");
  std::vector<std::string> tokens;
  for (std::size_t start = 1; start <= pointer.size();) {
    const std::size_t end = std::min(pointer.find('/', start), pointer.size());
    std::string token;
    for (std::size_t i = start; i < end; ++i) {
      if (pointer[i] != '~') {
        token += pointer[i];
      } else if (i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
        token += pointer[++i] == '0' ? '~' : '/';
      } else {
        throw InputError(file, pointer, "\"~\" in a JSON pointer must be followed by 0 or 1");
      }
    }
    tokens.push_back(token);
    start = end + 1;
  }
  return tokens;
}

// An array index as RFC 6901 writes it: "0", or digits without a leading zero.
std::optional<std::size_t> array_index(const std::string& token) {
  if (token.empty() || token.size() > 18 || token.find_first_not_of("0123456789") != std::string::npos ||
      (token.size() > 1 && token[0] == '0'))
    return std::nullopt;
  return std::stoull(token);
}

// The value text of an override: JSON if it is JSON, else the text itself as a string.
json override_value(const std::string& pointer, const std::string& text, const std::string& file) {
  if (!valid_utf8(text)) throw InputError(file, pointer, "expected UTF-8 text as the value, got \"" + text + "\"");
  if (json::accept(text)) return parse_json_text(text, file + ": --set " + pointer);
  double number = 0;
  if (const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
      error == std::errc::result_out_of_range && end == text.data() + text.size())
    throw InputError(file, pointer, "the value " + text + " is a number beyond the range of a double");
  return text;
}

}  // namespace

void apply_override(json& document, const std::string& pointer, const std::string& value_text,
                    const std::string& file) {
  json value = override_value(pointer, value_text, file);
  const std::vector<std::string> tokens = pointer_tokens(pointer, file);
  if (tokens.empty()) {
    document = std::move(value);
    return;
  }
  json* node = &document;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    const auto index = array_index(token);
    if (node->is_object() && node->contains(token))
      node = &(*node)[token];
    else if (node->is_array() && index && *index < node->size())
      node = &(*node)[*index];
    else
      throw InputError(file, pointer, "cannot set a value here: the parent path does not exist");
  }
  const std::string& last = tokens.back();
  if (node->is_object()) {
    (*node)[last] = std::move(value);
  } else if (node->is_array()) {
    const auto index = last == "-" ? std::optional(node->size()) : array_index(last);
    if (!index || *index > node->size())
      throw InputError(file, pointer,
                       "expected an index of the array (0 to " + std::to_string(node->size()) +
                           ", or \"-\" to append), got \"" + last + "\"");
    if (*index == node->size())
      node->push_back(std::move(value));
    else
      (*node)[*index] = std::move(value);
  } else {
    throw InputError(file, pointer, std::string("cannot set a value inside a ") + node->type_name());
  }
}

}  // namespace sonicsim
