#include "sim/progress_watch.hpp"

#include <algorithm>
#include <mutex>

#include <simgrid/s4u.hpp>

namespace sonicsim::sim {
namespace {

ProgressWatch* current_watch = nullptr;  // the one simulation of this process, while it is watched

}  // namespace

ProgressWatch::ProgressWatch(const Scenario& scenario, std::optional<std::int64_t> events_total,
                             const Recorder& recorder, const ProgressObserver& observer)
    : recorder_(recorder), observer_(observer) {
  if (!observer_) return;
  progress_.end_s = scenario.workload.duration_s;
  if (const auto& rule = scenario.simulation.stop_at_precision) {
    if (rule->max_time_s) progress_.end_s = std::min(*rule->max_time_s, progress_.end_s.value_or(*rule->max_time_s));
    progress_.may_end_sooner = true;
  }
  progress_.events_total = events_total;
  // xbt signals cannot be disconnected one by one: connect once per process, and point it at the
  // watch of the simulation that runs now.
  static std::once_flag connected;
  std::call_once(connected, [] { simgrid::s4u::Engine::on_time_advance_cb([](double) { on_time_advance(); }); });
  current_watch = this;
}

ProgressWatch::~ProgressWatch() {
  if (current_watch == this) current_watch = nullptr;
}

void ProgressWatch::on_time_advance() {
  ProgressWatch* watch = current_watch;
  if (!watch || ++watch->advances_ % 16 != 0) return;  // the wall clock every 16 instants is often enough
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - watch->last_call_).count() < kProgressEveryS) return;
  watch->last_call_ = now;
  watch->progress_.simulated_s = simgrid::s4u::Engine::get_clock();
  watch->progress_.events = static_cast<std::int64_t>(watch->recorder_.events().size());
  watch->observer_(watch->progress_);
}

}  // namespace sonicsim::sim
