#include "models/scenario/reader/value_readers.hpp"

#include <algorithm>
#include <string>

#include "models/io/json/choice.hpp"

namespace sonicsim {
namespace {

Distribution read_constant(const JsonNode& node) {
  node.allow_only({"distribution", "value"});
  return ConstantDist{node.at("value").duration_s()};
}

Distribution read_normal(const JsonNode& node) {
  node.allow_only({"distribution", "mean", "stddev"});
  return NormalDist{node.at("mean").duration_s(), node.at("stddev").duration_s()};
}

Distribution read_lognormal(const JsonNode& node) {
  node.allow_only({"distribution", "mean", "stddev"});
  const double mean = node.at("mean").duration_s();
  const double stddev = node.at("stddev").duration_s();
  if (!(mean > 0)) node.at("mean").fail("expected a positive mean for a lognormal");
  return LognormalDist{mean, stddev};
}

Distribution read_exponential(const JsonNode& node) {
  node.allow_only({"distribution", "mean"});
  return ExponentialDist{node.at("mean").positive_duration_s()};
}

Distribution read_empirical(const JsonNode& node) {
  node.allow_only({"distribution", "samples"});
  EmpiricalDist dist;
  for (const JsonNode& s : node.at("samples").non_empty_elements()) dist.samples.push_back(s.duration_s());
  return dist;
}

constexpr Choice<Distribution (*)(const JsonNode&)> kDistributions[]{
    {"constant", read_constant},       {"normal", read_normal},       {"lognormal", read_lognormal},
    {"exponential", read_exponential}, {"empirical", read_empirical},
};

ItemCount read_constant_count(const JsonNode& node) {
  node.allow_only({"distribution", "value"});
  return node.at("value").int_at_least(1);
}

ItemCount read_uniform_count(const JsonNode& node) {
  node.allow_only({"distribution", "min", "max"});
  const int min = node.at("min").int_at_least(0);
  const int max = node.at("max").int_at_least(1);
  if (max < min) node.at("max").fail("expected max at least min (" + std::to_string(min) + ")");
  return UniformCount{min, max};
}

ItemCount read_empirical_count(const JsonNode& node) {
  node.allow_only({"distribution", "samples"});
  EmpiricalCount count;
  for (const JsonNode& sample : node.at("samples").non_empty_elements())
    count.samples.push_back(sample.int_at_least(0));
  if (*std::max_element(count.samples.begin(), count.samples.end()) == 0)
    node.at("samples").fail("expected at least one sample above 0 (an event without items sends no request)");
  return count;
}

ItemCount read_poisson_count(const JsonNode& node);

constexpr Choice<ItemCount (*)(const JsonNode&)> kItemCounts[]{
    {"constant", read_constant_count},
    {"poisson", read_poisson_count},
    {"uniform", read_uniform_count},
    {"empirical", read_empirical_count},
};

ItemCount read_poisson_count(const JsonNode& node) {
  node.allow_only({"distribution", "mean"});
  const double mean = node.at("mean").number();
  if (!(mean > 0 && mean <= kMaxPoissonMean))
    node.at("mean").fail("expected a mean above 0 and at most " + std::to_string(static_cast<int>(kMaxPoissonMean)) +
                         " (for larger counts use " + quoted(choice_name(kItemCounts, read_uniform_count)) + " or " +
                         quoted(choice_name(kItemCounts, read_empirical_count)) + ")");
  return PoissonCount{mean};
}

}  // namespace

LinkSpec read_link(const JsonNode& node) {
  node.allow_only({"bandwidth", "latency"});
  return LinkSpec{node.at("bandwidth").bandwidth_Bps(), node.at("latency").duration_s()};
}

Distribution read_distribution(const JsonNode& node) {
  if (node.raw().is_string()) return ConstantDist{node.duration_s()};  // "110s" is shorthand for a constant
  if (!node.raw().is_object())
    node.fail(std::string("expected a duration like \"110s\" or a distribution object, got ") + node.raw().type_name() +
              " " + node.raw().dump());
  return node.at("distribution").choice(kDistributions)(node);
}

ItemCount read_item_count(const JsonNode& node) {
  if (node.raw().is_number()) return node.int_at_least(1);
  if (!node.raw().is_object())
    node.fail(std::string("expected a positive integer or a count distribution object, got ") + node.raw().type_name() +
              " " + node.raw().dump());
  return node.at("distribution").choice(kItemCounts, "a count of items per event")(node);
}

}  // namespace sonicsim
