// Declared unknowns: what a range or a list of alternatives reads as, the values a design point
// turns into, and one clear line for each malformed declaration.
#include <doctest/doctest.h>

#include <cmath>

#include "models/io/input_error.hpp"
#include "models/scenario/unknowns/declared_unknown.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

DeclaredUnknown only(const json& document) {
  const std::vector<DeclaredUnknown> found = find_declared_unknowns(document, "s.json");
  REQUIRE(found.size() == 1);
  return found.front();
}

std::string unknowns_error_of(const json& document) {
  try {
    find_declared_unknowns(document, "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// The number in "2.5ms" (the value a range with a unit gives).
double number_of(const json& value) {
  return value.is_number() ? value.get<double>() : std::stod(value.get<std::string>());
}

}  // namespace

TEST_CASE("declarations are found where they stand, with their JSON pointer and source") {
  const json d = json::parse(R"({
    "models": {"m/x": {"per_item": {"between": ["1us", "3us"], "why": "no scan below batch 8"}}},
    "platform": {"servers": [{"frontend": {"threads": {"one_of": [2, 4, 8]}}}]},
    "workload": {"jobs": 10}
  })");
  const std::vector<DeclaredUnknown> found = find_declared_unknowns(d, "s.json");
  REQUIRE(found.size() == 2);
  CHECK(found[0].pointer == "/models/m~1x/per_item");
  CHECK(found[0].why == "no scan below batch 8");
  CHECK(found[0].describe() == "between 1us and 3us");
  CHECK(found[1].pointer == "/platform/servers/0/frontend/threads");
  CHECK(found[1].alternatives() == 3);
  CHECK(found[1].name() == "threads");
  CHECK(found[1].describe() == "one of 2, 4, 8");
  CHECK(find_declared_unknowns(json::parse(R"({"workload": {"jobs": 10}})"), "s.json").empty());
}

TEST_CASE("a uniform range's values are its quantiles, keeping the unit; the nominal is the median") {
  const DeclaredUnknown u = only(json::parse(R"({"a": {"between": ["2ms", "8ms"]}})"));
  CHECK(number_of(u.value_at(0.0)) == doctest::Approx(2));
  CHECK(number_of(u.value_at(0.25)) == doctest::Approx(3.5));
  CHECK(u.value_at(0.25).get<std::string>().ends_with("ms"));
  CHECK(number_of(u.nominal()) == doctest::Approx(5));
  CHECK(number_of(u.value_at(1.0)) < 8);  // [0, 1): the top end is approached, not drawn
}

TEST_CASE("a log-uniform range's median is the geometric mean of its ends") {
  const DeclaredUnknown u = only(json::parse(R"({"a": {"between": [0.1, 10], "distribution": "log-uniform"}})"));
  CHECK(u.nominal().get<double>() == doctest::Approx(1.0));
  CHECK(u.value_at(0.25).get<double>() == doctest::Approx(std::pow(10.0, -0.5)));
}

TEST_CASE("a triangular range's quantiles invert its distribution function") {
  // F(x) = (x-a)^2 / ((b-a)(c-a)) below the mode c, 1 - (b-x)^2 / ((b-a)(b-c)) above it.
  const DeclaredUnknown u =
      only(json::parse(R"({"a": {"between": [0.0, 10.0], "distribution": "triangular", "mode": 2.0}})"));
  const double a = 0, b = 10, c = 2;
  for (double p : {0.05, 0.2, 0.5, 0.9}) {
    const double x = u.value_at(p).get<double>();
    const double F = x < c ? (x - a) * (x - a) / ((b - a) * (c - a)) : 1 - (b - x) * (b - x) / ((b - a) * (b - c));
    CHECK(F == doctest::Approx(p));
  }
}

TEST_CASE("whole-number ends draw whole numbers, each end as likely as any value between") {
  const DeclaredUnknown u = only(json::parse(R"({"a": {"between": [1, 4]}})"));
  std::vector<int> count(5, 0);
  for (int i = 0; i < 400; ++i) {
    const json v = u.value_at((i + 0.5) / 400);
    REQUIRE(v.is_number_integer());
    ++count.at(v.get<int>());
  }
  CHECK(count[0] == 0);
  for (int k = 1; k <= 4; ++k) CHECK(count[k] == 100);
}

TEST_CASE("alternatives own equal shares of [0, 1); the nominal is the first") {
  const DeclaredUnknown u = only(json::parse(R"({"a": {"one_of": ["grow", "fixed", {"x": 1}]}})"));
  CHECK(u.value_at(0.0) == "grow");
  CHECK(u.value_at(0.34) == "fixed");
  CHECK(u.value_at(0.99) == json::parse(R"({"x": 1})"));
  CHECK(u.nominal() == "grow");
}

TEST_CASE("a malformed declaration is one line naming the file, its pointer and what was expected") {
  const auto wrong = [](const char* declaration) {
    return unknowns_error_of(json::parse(std::string(R"({"m": {"k": )") + declaration + "}}"));
  };
  CHECK(wrong(R"({"between": [1]})") ==
        "s.json: /m/k/between: expected two ends, [LOW, HIGH]: numbers, or numbers with one unit (\"2ms\", \"8ms\")");
  CHECK(wrong(R"({"between": ["1ms", "2s"]})") ==
        "s.json: /m/k/between: give both ends in one unit, got \"ms\" and \"s\"");
  CHECK(wrong(R"({"between": [3, 1]})") == "s.json: /m/k/between: expected LOW below HIGH, got [3,1]");
  CHECK(wrong(R"({"between": [1, 1]})") == "s.json: /m/k/between: expected LOW below HIGH, got [1,1]");
  CHECK(wrong(R"({"between": ["x", 2]})").starts_with("s.json: /m/k/between: expected two ends"));
  CHECK(wrong(R"({"between": [0, 1], "distribution": "log-uniform"})") ==
        "s.json: /m/k/between: a log-uniform range needs LOW above 0, got [0,1]");
  CHECK(wrong(R"({"between": [0, 1], "distribution": "normal"})") ==
        "s.json: /m/k/distribution: expected uniform, log-uniform or triangular, got \"normal\"");
  CHECK(wrong(R"({"between": [0, 1], "mode": 0.5})") ==
        "s.json: /m/k/mode: \"mode\" goes with \"distribution\": \"triangular\"");
  CHECK(wrong(R"({"between": [0, 1], "distribution": "triangular", "mode": 2})") ==
        "s.json: /m/k/mode: expected a value between the ends, in their unit, got 2");
  CHECK(wrong(R"({"between": [0, 1], "one_of": [1, 2]})") ==
        "s.json: /m/k: a declared unknown is a range (\"between\") or alternatives (\"one_of\"), not both");
  CHECK(wrong(R"({"between": [0, 1], "wyh": "x"})") ==
        "s.json: /m/k/wyh: unknown key in a declared unknown (expected \"between\", \"distribution\", \"mode\", "
        "\"why\")");
  CHECK(wrong(R"({"one_of": [1]})") == "s.json: /m/k/one_of: expected a list of 2 to 1000 alternatives, got [1]");
  CHECK(wrong(R"({"one_of": "ab"})") == "s.json: /m/k/one_of: expected a list of 2 to 1000 alternatives, got \"ab\"");
  CHECK(wrong(R"({"one_of": [1, {"between": [1, 2]}]})") ==
        "s.json: /m/k/one_of/1: an alternative is a value, not itself an unknown");
  CHECK(wrong(R"({"one_of": [1, 2], "why": 3})") == "s.json: /m/k/why: expected a text: the source of the range");
  CHECK(wrong(R"({"between": [1, 1e300]})").find("whole numbers") == std::string::npos);  // 1e300 is a double
  CHECK(wrong(R"({"between": [1, 10000000000000000]})") == "s.json: /m/k/between: whole numbers up to 1e15 only");
}

TEST_CASE("a command that needs one value refuses a declared unknown and says how to give one") {
  const json d = json::parse(R"({"a": {"b": {"between": [1, 2]}}, "c": {"one_of": [1, 2]}})");
  try {
    refuse_declared_unknowns(d, "s.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "s.json: /a/b: a declared unknown (between 1 and 2), one of 2: `run`, `sweep` and `plan` propagate declared "
          "unknowns; this command needs one value: --set /a/b=VALUE");
  }
  CHECK_NOTHROW(refuse_declared_unknowns(json::parse(R"({"a": 1})"), "s.json"));
}
