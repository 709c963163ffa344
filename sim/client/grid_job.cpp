#include "sim/client/grid_job.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

GridJob::GridJob(int index, sg4::Host* host, double start_s, std::optional<int> events, JobContext context, int run)
    : index_(index), start_s_(start_s), events_(events), context_(context), stream_(context, index, 0, run, host) {}

void GridJob::operator()() {
  sg4::this_actor::sleep_until(start_s_);
  const Workload& w = context_.scenario.workload;
  gated_ = refused_at_start(context_);
  on_cpu_.assign(w.modules.size(), gated_);
  context_.recorder.job_ledger().run_began(index_);
  int done = 0;
  for (int event = 0;; ++event) {
    if (events_ && event >= *events_) break;
    if (w.duration_s && sg4::Engine::get_clock() >= *w.duration_s) break;
    if (!stream_.run_event(event, on_cpu_)) {
      failed_ = true;
      context_.recorder.job_ledger().run_failed(start_s_, sg4::Engine::get_clock(), done);
      break;
    }
    ++done;
    if (gated_) context_.recorder.event_gated();
  }
  context_.recorder.job_ledger().run_finished(index_, failed_);
  stream_.end_of_job();
}

}  // namespace sonicsim::sim
