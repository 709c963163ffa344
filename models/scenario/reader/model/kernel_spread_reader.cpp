#include "models/scenario/reader/model/kernel_spread_reader.hpp"

#include <string_view>

#include "models/io/json/choice.hpp"

namespace sonicsim {
namespace {

constexpr std::string_view kNoSpread[]{"none"};

double read_cv(const JsonNode& node) { return node.number_in(0, kMaxKernelCv); }

}  // namespace

std::optional<KernelSpread> read_kernel_spread(const JsonNode& node) {
  if (node.raw().is_string()) {
    node.choice(kNoSpread, "or a spread object {\"distribution\": ..., \"cv\": ...}");
    return std::nullopt;
  }
  if (!node.raw().is_object())
    node.fail(std::string("expected \"none\" or a spread object {\"distribution\": ..., \"cv\": ...}, got ") +
              node.raw().type_name() + " " + node.raw().dump());
  node.allow_only({"distribution", "cv"});
  KernelSpread spread;
  spread.shape = node.at("distribution").choice(kSpreadShapes);
  const JsonNode cv = node.at("cv");
  if (cv.raw().is_number()) {
    spread.cv_points.emplace_back(1.0, read_cv(cv));
    return spread;
  }
  if (!cv.raw().is_array())
    cv.fail(std::string("expected a coefficient of variation (a number) or an array of {\"batch\", \"cv\"}, got ") +
            cv.raw().type_name() + " " + cv.raw().dump());
  for (const JsonNode& point : cv.non_empty_elements()) {
    point.allow_only({"batch", "cv"});
    const double batch = point.at("batch").int_at_least(1);
    if (!spread.cv_points.empty() && batch <= spread.cv_points.back().first)
      point.at("batch").fail("expected batch sizes in strictly increasing order");
    spread.cv_points.emplace_back(batch, read_cv(point.at("cv")));
  }
  return spread;
}

}  // namespace sonicsim
