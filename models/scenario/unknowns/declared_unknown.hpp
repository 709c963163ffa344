#pragma once
// Declared unknowns: a scenario value its author does not know, written as a range or a list of
// alternatives in place of the value, with the source of that range:
//   "kernel_overlap": {"between": [1, 2], "why": "two instances, neither measured together"}
//   "per_request": {"between": ["0.1ms", "1ms"], "distribution": "log-uniform", "why": "..."}
//   "batcher_payloads": {"one_of": ["grow", "fixed"], "why": "the release is not named"}
// `run`, `sweep` and `plan` propagate them (a design of runs over them); every other reader of a
// scenario needs a value there (--set the pointer). This file finds and checks them, and turns a
// point of the design (a probability in [0, 1) per unknown) into the value the scenario takes.
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonicsim {

// A number, or a number with a unit ("2ms", "10Gbps"): both ends in the same unit.
struct RangeUnknown {
  enum class Shape { Uniform, LogUniform, Triangular };
  double low = 0, high = 0, mode = 0;  // in `unit`; mode for the triangular shape only
  std::string unit;                    // "" for a bare number
  bool whole = false;                  // both ends JSON integers: draws are whole numbers
  Shape shape = Shape::Uniform;
};

struct ChoiceUnknown {
  std::vector<nlohmann::json> alternatives;  // two or more
};

struct DeclaredUnknown {
  std::string pointer;  // where the scenario (with the user's --set) declares it
  std::string why;      // its source, as the author gave it ("" if none)
  std::variant<RangeUnknown, ChoiceUnknown> kind;

  // The value at probability `u` in [0, 1): the range's quantile, or the alternative whose equal
  // share of [0, 1) holds u.
  nlohmann::json value_at(double u) const;
  // What a single run takes: the range's median, or the first alternative.
  nlohmann::json nominal() const;
  std::size_t alternatives() const;  // 0 for a range
  // The pointer's last key ("kernel_overlap"), or the last two where the last is an index.
  std::string name() const;
  // "between 0.1ms and 1ms (log-uniform)", "one of \"grow\", \"fixed\"".
  std::string describe() const;
};

// Every declared unknown of a scenario document, in document order (keys sorted, as nlohmann keeps
// them). A malformed declaration is an InputError naming `file` and its pointer.
std::vector<DeclaredUnknown> find_declared_unknowns(const nlohmann::json& document, const std::string& file);

// Whether a JSON value is a declaration (an object with "between" or "one_of").
bool is_declared_unknown(const nlohmann::json& value);

// The pointer's unknowns must be given values for a plain run: an InputError naming the first and
// what to do, for the readers that need one scenario.
void refuse_declared_unknowns(const nlohmann::json& document, const std::string& file);

}  // namespace sonicsim
