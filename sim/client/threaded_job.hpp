#pragma once
// A grid job as a multi-threaded CMSSW process (docs/reference/cmssw-sonic.md §1, §2): `threads` cores of
// one node and `streams` events in flight at once. Each stream is an actor on the job's host running
// its own events through the module chain (EventStream), with its own requests, inbox and random
// streams; the streams share the job's threads (JobThreads). A stream reads the job's next event
// once it has a thread (the source reads events one at a time, for whichever stream asks), so the
// job runs `events` events over all its streams. When a module fails the job, the job ends there:
// its other streams stop where they are and their requests are cancelled, as an exception ends the
// whole cmsRun process.
#include <memory>
#include <optional>

#include <simgrid/s4u.hpp>

#include "sim/client/job_context.hpp"

namespace sonicsim::sim {

class ThreadedJob {
 public:
  // As GridJob's: `events` over all the job's streams; `run` counts its resubmissions.
  ThreadedJob(int index, simgrid::s4u::Host* host, double start_s, std::optional<int> events, JobContext context,
              int run = 0);

  // The job's actor: at its start it starts its streams' actors, waits for them, and ends the job.
  void operator()();
  bool failed() const;

 private:
  struct State;
  static void run_stream(const std::shared_ptr<State>& job, int stream);
  static void fail(const std::shared_ptr<State>& job, int stream);
  static void stop_streams(State& job);

  std::shared_ptr<State> state_;  // shared with the streams' actors (Actor::create copies the job)
};

}  // namespace sonicsim::sim
