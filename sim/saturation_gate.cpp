#include "sim/saturation_gate.hpp"

#include <cmath>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

std::int64_t to_ms(double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1000)); }

}  // namespace

SaturationGate::SaturationGate(const Scenario& scenario, const FarmPlatform& farm,
                               std::vector<std::unique_ptr<InferenceServer>>& servers, const RequestBalancer& balancer,
                               Recorder& recorder)
    : scenario_(scenario),
      farm_(farm),
      servers_(servers),
      balancer_(balancer),
      recorder_(recorder),
      spec_(*scenario.platform.proxy->gate) {
  for (std::size_t s = 0; s < farm.servers.size(); ++s)
    for (std::size_t m = 0; m < scenario.models.size(); ++m)
      if (const TritonModelStats* stats = recorder.find_triton(static_cast<int>(s), static_cast<int>(m)))
        for (const auto& [gpu, unused] : stats->series) labels_.push_back({static_cast<int>(s), static_cast<int>(m), gpu});
  queue_duration_us_.resize(labels_.size());
  exec_count_.resize(labels_.size());
}

void SaturationGate::start() {
  sg4::Actor::create("prometheus", farm_.proxy, [this] { scrape_forever(); })->daemonize();
}

// Scrapes at 0, interval, 2 x interval, ...; samples older than the metric's window are dropped.
void SaturationGate::scrape_forever() {
  const double interval = scenario_.platform.scrape_interval_s;
  for (std::int64_t k = 0;; ++k) {
    sg4::this_actor::sleep_until(static_cast<double>(k) * interval);
    const std::int64_t now_ms = to_ms(sg4::Engine::get_clock());
    const std::int64_t keep_from = now_ms - to_ms(spec_.window_s);
    for (std::size_t i = 0; i < labels_.size(); ++i) {
      const LabelSet& l = labels_[i];
      if (servers_[static_cast<std::size_t>(l.server)]->up()) {
        const TritonPromSeries& counters = recorder_.triton(l.server, l.model).series.at(l.gpu);
        queue_duration_us_[i].push_back({now_ms, static_cast<double>(counters.queue_duration_us)});
        exec_count_[i].push_back({now_ms, static_cast<double>(counters.exec_count)});
      }
      for (PromSeries* series : {&queue_duration_us_[i], &exec_count_[i]})
        while (!series->empty() && series->front().t_ms <= keep_from) series->erase(series->begin());
    }
  }
}

bool SaturationGate::admit() {
  const std::int64_t now_ms = to_ms(sg4::Engine::get_clock());
  bool any_ready = false;
  for (std::size_t s = 0; s < servers_.size(); ++s) any_ready = any_ready || balancer_.ready(static_cast<int>(s));
  const std::optional<double> load =
      supersonic_load_ms(queue_duration_us_, exec_count_, now_ms, to_ms(spec_.window_s));
  // No value yet (fewer than two scrapes in the window): let the job through. What the Lua filter
  // does with an empty result is not established (supersonic-deployment.md §1.4).
  const bool admitted = any_ready && (!load || *load <= spec_.threshold_ms);
  recorder_.job_gated(!admitted, !load.has_value());
  return admitted;
}

}  // namespace sonicsim::sim
