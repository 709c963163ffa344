#pragma once
// The names an input key may take, each declared once in a table: reading the key
// (JsonNode::choice in json_reader.hpp) and its "expected ..." message both come from the table,
// so the message always lists exactly the names accepted, in the table's order.
//
//   constexpr Choice<JobPlacement> kPlacements[]{{"fill", JobPlacement::Fill}, {"spread", JobPlacement::Spread}};
//   platform.placement = node.choice(kPlacements);
//   // otherwise: FILE: /platform/placement: expected "fill" or "spread", got "x"
//
// A table may also be plain names (std::string_view) where the name itself is the value.
#include <string>
#include <string_view>
#include <vector>

namespace sonicsim {

template <class T>
struct Choice {
  std::string_view name;
  T value;
};

inline std::string_view name_of(std::string_view name) { return name; }
template <class T>
std::string_view name_of(const Choice<T>& choice) {
  return choice.name;
}
inline std::string_view value_of(std::string_view name) { return name; }
template <class T>
const T& value_of(const Choice<T>& choice) {
  return choice.value;
}

inline std::string quoted(std::string_view name) {
  std::string text(1, '"');
  return text.append(name).append(1, '"');
}

// "\"a\"", "\"a\" or \"b\"", "\"a\", \"b\" or \"c\"".
std::string or_list(const std::vector<std::string_view>& names);

// The names of a table, quoted, as or_list writes them.
template <class Table>
std::string choice_list(const Table& table) {
  std::vector<std::string_view> names;
  for (const auto& choice : table) names.push_back(name_of(choice));
  return or_list(names);
}

// The names of a table but those of `excluded`. (A loop, not std::views::filter: clang 14, which
// the sanitizer build uses, cannot compile libstdc++ 12's views.)
template <class Table, class T>
std::string choice_list_except(const Table& table, const T& excluded) {
  std::vector<std::string_view> names;
  for (const auto& choice : table)
    if (!(choice.value == excluded)) names.push_back(choice.name);
  return or_list(names);
}

// The name a table gives `value` (its first entry with that value).
template <class Table, class T>
std::string_view choice_name(const Table& table, const T& value) {
  for (const auto& choice : table)
    if (choice.value == value) return choice.name;
  return {};
}

}  // namespace sonicsim
