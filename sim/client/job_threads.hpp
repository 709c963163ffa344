#pragma once
// The threads of a multi-threaded job: CMSSW's TBB workers, any of which runs any stream's ready
// work (docs/reference/cmssw-sonic.md §1, "How TBB lets any thread work on any stream"). A stream holds one
// while it runs a module, computing or blocked in a synchronous call, and gives it back while an
// ExternalWork request is in flight and at the end of each event. Streams waiting for a thread get
// one first come, first served (TBB's shared task queue reduced to one FIFO, §5 "What can be
// simplified"). The job's CPU work is thus at most `threads` executions at once on its node, whose
// cores it holds.
#include <simgrid/s4u.hpp>

#include "sim/recorder.hpp"

namespace sonicsim::sim {

class JobThreads {
 public:
  JobThreads(int threads, Recorder& recorder, int job)
      : free_(simgrid::s4u::Semaphore::create(static_cast<unsigned>(threads))), recorder_(recorder), job_(job) {}

  // Blocks until a thread is free and takes it; returns the seconds waited.
  double acquire() {
    const double before = simgrid::s4u::Engine::get_clock();
    free_->acquire();
    return simgrid::s4u::Engine::get_clock() - before;
  }
  void release() { free_->release(); }
  // A thread of the job starts or stops computing: the job's busy thread time (CPU efficiency).
  void computing(bool busy) { recorder_.job_ledger().thread_busy(job_, busy); }

 private:
  simgrid::s4u::SemaphorePtr free_;
  Recorder& recorder_;
  int job_;
};

}  // namespace sonicsim::sim
