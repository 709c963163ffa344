#include <doctest/doctest.h>

#include <array>

#include "models/io/json/choice.hpp"
#include "models/io/json/json_reader.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

enum class Fruit { Apple, Pear, Plum };
constexpr Choice<Fruit> kFruits[]{{"apple", Fruit::Apple}, {"pear", Fruit::Pear}, {"plum", Fruit::Plum}};

// The InputError message of reading `value` at /fruit of f.json with `read`, or "(no error)".
template <class Read>
std::string error_reading(const json& value, Read read) {
  const json document{{"fruit", value}};
  try {
    read(JsonNode(document, "", "f.json").at("fruit"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a choice table reads each of its names as its value") {
  for (const auto& [name, value] : kFruits) {
    const json document{{"fruit", name}};
    CHECK(JsonNode(document, "", "f.json").at("fruit").choice(kFruits) == value);
  }
}

TEST_CASE("an unknown name is an error listing every name of the table in its order") {
  CHECK(error_reading("fig", [](const JsonNode& n) { n.choice(kFruits); }) ==
        "f.json: /fruit: expected \"apple\", \"pear\" or \"plum\", got \"fig\"");
  CHECK(error_reading("fig", [](const JsonNode& n) { n.choice(kFruits, "a fruit of the orchard"); }) ==
        "f.json: /fruit: expected \"apple\", \"pear\" or \"plum\" (a fruit of the orchard), got \"fig\"");
  CHECK(error_reading("Apple", [](const JsonNode& n) { n.choice(kFruits); }) ==
        "f.json: /fruit: expected \"apple\", \"pear\" or \"plum\", got \"Apple\"");
  CHECK(error_reading(3, [](const JsonNode& n) { n.choice(kFruits); }) ==
        "f.json: /fruit: expected a string, got number 3");
}

TEST_CASE("choice lists: one name, two, several; a filtered table; the name of a value") {
  CHECK(or_list({"a"}) == "\"a\"");
  CHECK(or_list({"a", "b"}) == "\"a\" or \"b\"");
  CHECK(or_list({"a", "b", "c", "d"}) == "\"a\", \"b\", \"c\" or \"d\"");
  CHECK(choice_list_except(kFruits, Fruit::Pear) == "\"apple\" or \"plum\"");
  CHECK(choice_name(kFruits, Fruit::Plum) == "plum");
}

TEST_CASE("a table of plain names reads the name itself") {
  constexpr std::array<std::string_view, 2> kModels{"CM02", "LV08"};
  const json document{{"fruit", "LV08"}};
  CHECK(JsonNode(document, "", "f.json").at("fruit").choice(kModels) == "LV08");
  CHECK(error_reading("L07", [&](const JsonNode& n) { n.choice(kModels); }) ==
        "f.json: /fruit: expected \"CM02\" or \"LV08\", got \"L07\"");
}
