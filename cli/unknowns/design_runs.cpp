#include "cli/unknowns/design_runs.hpp"

#include <algorithm>
#include <stdexcept>

#include <boost/program_options/errors.hpp>

#include "models/io/text_format.hpp"

namespace sonicsim::cli {

Overrides point_overrides(const std::vector<DeclaredUnknown>& unknowns, const DesignPoint& point) {
  Overrides o;
  for (std::size_t i = 0; i < unknowns.size(); ++i)
    o.emplace_back(unknowns[i].pointer, unknowns[i].value_at(point[i]).dump());
  return o;
}

Overrides nominal_overrides(const std::vector<DeclaredUnknown>& unknowns) {
  Overrides o;
  for (const DeclaredUnknown& u : unknowns) o.emplace_back(u.pointer, u.nominal().dump());
  return o;
}

DesignOptions design_options(const std::optional<std::size_t>& samples, const std::optional<std::size_t>& max_samples,
                             std::uint64_t seed) {
  DesignOptions o;
  o.seed = seed;
  if (samples && (*samples < 3 || *samples > 100'000))
    throw boost::program_options::error("--samples expects 3 to 100000 runs");
  if (max_samples && (*max_samples < 3 || *max_samples > 100'000))
    throw boost::program_options::error("--max-samples expects 3 to 100000 runs");
  if (samples && max_samples)
    throw boost::program_options::error("--samples fixes the runs; --max-samples bounds the rule's");
  o.samples = samples;
  if (max_samples) o.max_samples = *max_samples;
  return o;
}

UnknownsSummary run_design(const std::vector<DeclaredUnknown>& unknowns, const DesignOptions& options,
                           const std::vector<std::pair<std::string, std::string>>& outputs,
                           const std::function<std::vector<PointResult>(const std::vector<Overrides>&)>& run) {
  const bool factorial =
      factorial_cells(unknowns) > 0 &&
      std::any_of(unknowns.begin(), unknowns.end(), [](const auto& u) { return u.alternatives() > 0; });
  const std::string method =
      factorial ? "full factorial over the choices, a Latin hypercube of the ranges in each" : "Latin hypercube";
  const std::size_t batch_size = options.samples ? *options.samples : design_batch_size(unknowns);
  std::vector<DesignPoint> sound_points;
  std::vector<DesignOutput> values;
  for (const auto& [name, unit] : outputs) values.push_back({name, unit, {}});
  std::int64_t unsound = 0;
  std::string first_reason;
  std::optional<stats::Band> last;
  std::size_t batches = 0, runs = 0;
  std::string stopped;
  std::vector<DesignRun> records;
  while (true) {
    const std::vector<DesignPoint> points = design_batch(unknowns, batch_size, options.seed, batches);
    std::vector<Overrides> variants;
    for (const DesignPoint& p : points) variants.push_back(point_overrides(unknowns, p));
    const std::vector<PointResult> results = run(variants);
    ++batches;
    runs += points.size();
    for (std::size_t i = 0; i < points.size(); ++i) {
      DesignRun& record = records.emplace_back();
      for (const auto& [pointer, value] : variants[i]) record.values.push_back(value);
      if (!results[i].unsound.empty()) {
        for (const std::string& r : results[i].unsound) record.unsound += (record.unsound.empty() ? "" : "; ") + r;
        if (unsound++ == 0) first_reason = record.unsound;
        continue;
      }
      record.outputs = results[i].outputs;
      sound_points.push_back(points[i]);
      for (std::size_t o = 0; o < values.size(); ++o) values[o].values.push_back(results[i].outputs[o]);
    }
    if (options.samples) {
      stopped = "--samples";
      break;
    }
    if (!values.empty() && values[0].values.size() >= 3) {
      const stats::Band now = stats::band_of(values[0].values);
      if (last && sound_points.size() >= 20 && band_steady(*last, now)) {
        stopped = "the band of " + outputs[0].first + " steady";
        break;
      }
      last = now;
    }
    if (runs + batch_size > options.max_samples) {
      stopped = printf_string("--max-samples %zu", options.max_samples);
      break;
    }
  }
  if (sound_points.empty())
    throw std::runtime_error(
        printf_string("no run of the design over the declared unknowns is sound (%lld "
                      "runs; the first: %s)",
                      static_cast<long long>(unsound), first_reason.c_str()));
  UnknownsSummary s = summarize_unknowns(unknowns, sound_points, values, method, options.seed, batches, stopped);
  s.runs = static_cast<std::int64_t>(runs);
  s.unsound_runs = unsound;
  s.unsound_reason = first_reason;
  s.run_records = std::move(records);
  return s;
}

}  // namespace sonicsim::cli
