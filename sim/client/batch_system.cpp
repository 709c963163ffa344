#include "sim/client/batch_system.hpp"

#include <numeric>
#include <optional>
#include <string>

#include "sim/client/threaded_job.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

std::vector<int> slot_ids(std::size_t slots) {
  std::vector<int> ids(slots);
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

}  // namespace

BatchSystem::BatchSystem(const FarmPlatform& farm, std::vector<int> slots, std::vector<PlannedJob> jobs,
                         JobContext context)
    : farm_(farm),
      slot_node_(std::move(slots)),
      jobs_(std::move(jobs)),
      context_(context),
      queue_(slot_ids(slot_node_.size())),
      runs_(jobs_.size(), 0) {}

void BatchSystem::start() {
  // The submitting actor only sleeps; any host will do.
  sg4::Actor::create("batch-system", farm_.workers.front().host, [this] { submit_all(); });
}

void BatchSystem::submit_all() {
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    sg4::this_actor::sleep_until(jobs_[j].submit_s);
    const int job = static_cast<int>(j);
    context_.recorder.job_ledger().submitted(job, sg4::Engine::get_clock());
    if (const auto slot = queue_.submit(job)) start_job(job, *slot);
  }
}

void BatchSystem::start_job(int job, int slot) {
  const int node = slot_node_[static_cast<std::size_t>(slot)];
  sg4::Host* host = farm_.workers[static_cast<std::size_t>(node)].host;
  const double now = sg4::Engine::get_clock();
  context_.recorder.job_ledger().slot_granted(job, node, now);
  const std::optional<int> events = jobs_[static_cast<std::size_t>(job)].events;
  const int runs = runs_[static_cast<std::size_t>(job)];
  if (context_.scenario.workload.threaded()) {
    sg4::Actor::create("job-" + std::to_string(job), host,
                       [this, job, slot, run = ThreadedJob(job, host, now, events, context_, runs)]() mutable {
                         run();
                         job_ended(job, slot, run.failed());
                       });
    return;
  }
  sg4::Actor::create("job-" + std::to_string(job), host,
                     [this, job, slot, run = GridJob(job, host, now, events, context_, runs)]() mutable {
                       run();
                       job_ended(job, slot, run.failed());
                     });
}

// A failed job goes back to the end of the queue while it has resubmissions left, as grid
// schedulers resubmit failed jobs; its core goes to the next waiting job first.
void BatchSystem::job_ended(int job, int slot, bool failed) {
  const double now = sg4::Engine::get_clock();
  int& runs = runs_[static_cast<std::size_t>(job)];
  const bool resubmit = failed && runs < context_.scenario.workload.resubmit;
  context_.recorder.job_ledger().slot_released(job, now, failed, resubmit);
  if (const auto next = queue_.release(slot)) start_job(*next, slot);
  if (!resubmit) return;
  ++runs;
  context_.recorder.job_ledger().submitted(job, now);
  if (const auto free = queue_.submit(job)) start_job(job, *free);
}

}  // namespace sonicsim::sim
