#include "analysis/uncertainty_report.hpp"

#include <algorithm>
#include <cmath>

#include "models/io/text_format.hpp"

namespace sonicsim {

UnknownsSummary summarize_unknowns(const std::vector<DeclaredUnknown>& unknowns, const std::vector<DesignPoint>& points,
                                   const std::vector<DesignOutput>& outputs, const std::string& design,
                                   std::uint64_t design_seed, std::size_t batches, const std::string& stopped) {
  UnknownsSummary s;
  s.design = design;
  s.design_seed = design_seed;
  s.runs = static_cast<std::int64_t>(points.size());
  s.batches = static_cast<std::int64_t>(batches);
  s.stopped = stopped;
  for (const DeclaredUnknown& u : unknowns) s.unknowns.push_back({u.pointer, u.describe(), u.why});
  for (const DesignOutput& o : outputs) {
    const stats::Band b = stats::band_of(o.values);
    OutputBand band{o.output, o.unit, b.median, b.p5, b.p95, {}};
    for (std::size_t i = 0; i < unknowns.size(); ++i) {
      std::vector<double> u;
      for (const DesignPoint& p : points) u.push_back(p[i]);
      const double index = stats::first_order_index(u, o.values, unknowns[i].alternatives());
      band.first_order_index.push_back(
          {unknowns[i].pointer, std::isfinite(index) ? std::optional(index) : std::nullopt});
    }
    s.outputs.push_back(band);
  }
  return s;
}

std::string format_unknowns(const UnknownsSummary& s) {
  std::string out = printf_string(
      "declared unknowns (%zu), over %lld runs (%s, design seed %llu, %lld batch%s; ended by %s):\n", s.unknowns.size(),
      static_cast<long long>(s.runs), s.design.c_str(), static_cast<unsigned long long>(s.design_seed),
      static_cast<long long>(s.batches), s.batches == 1 ? "" : "es", s.stopped.c_str());
  if (s.unsound_runs > 0)
    out += printf_string("  %lld of them unsound, left out of the bands (the first: %s)\n",
                         static_cast<long long>(s.unsound_runs), s.unsound_reason.c_str());
  for (const DeclaredUnknownEntry& u : s.unknowns)
    out += "  " + u.pointer + ": " + u.declared + (u.why.empty() ? "" : " (" + u.why + ")") + "\n";
  out +=
      "each output: median [90% band, 5% to 95%]; the share of its variance each unknown explains alone (first-order "
      "index)\n";
  for (const OutputBand& b : s.outputs) {
    out += printf_string("  %-34s %.4g [%.4g to %.4g] %s", b.output.c_str(), b.median, b.p5, b.p95, b.unit.c_str());
    std::vector<const UnknownIndex*> ranked;
    for (const UnknownIndex& i : b.first_order_index) ranked.push_back(&i);
    std::stable_sort(ranked.begin(), ranked.end(), [](const UnknownIndex* a, const UnknownIndex* c) {
      return a->index.value_or(-1) > c->index.value_or(-1);
    });
    std::string by;
    for (const UnknownIndex* i : ranked) {
      if (!i->index) continue;
      const std::string name = i->pointer.substr(i->pointer.rfind('/') + 1);
      by += printf_string("%s%s %.0f%%", by.empty() ? "" : ", ", name.c_str(), 100 * *i->index);
    }
    out += by.empty() ? "; does not vary\n" : "; explained by " + by + "\n";
  }
  return out;
}

bool band_steady(const stats::Band& before, const stats::Band& now) {
  const double allowed = std::max(0.05 * (now.p95 - now.p5), 1e-3 * std::fabs(now.median));
  return std::fabs(now.median - before.median) <= allowed && std::fabs(now.p5 - before.p5) <= allowed &&
         std::fabs(now.p95 - before.p95) <= allowed;
}

}  // namespace sonicsim
