#pragma once
// One stream's event run as a dependency graph (Workload::graph): a module runs once every module it
// waits for is done, as CMSSW starts a module when its prefetching ends (FWCore/Framework/src/Worker.h,
// Worker::doWorkAsync; docs/reference/cmssw-sonic.md §1). Ready modules wait
// in the stream's queue, first ready first run; up to `threads` worker actors of the stream take
// them on the job's threads (TBB's workers: any free thread runs any ready task). A worker that
// finishes a module goes on with the next ready one on the same thread (TBB runs the task a task
// spawns on its own thread), so the thread the stream read the event on runs its first module, and
// the thread that finishes the last module returns to the stream. An ExternalWork call frees its
// thread: its actor leaves the workers while its requests are in flight (at most one actor per
// ExternalWork module besides the workers), and waits for a thread again for produce().
// A worker with no module left parks until a later event of the stream needs one: it is handed work
// in the same instant as an actor created for it would start, and the stream creates an actor
// only when none is parked (an actor's creation maps its stack and protects its guard page).
//
// The event's time components (cpu_s ... thread_wait_s) are those of its critical path: the module
// that finished last, the module whose end made it ready, and so on back to the event's start, so
// that they still sum to the event's time; its request sums (requests, network_s, queue_s, gpu_s,
// ...) are over all its modules.
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "analysis/records.hpp"
#include "models/workload/module_graph.hpp"
#include "sim/client/job_threads.hpp"

namespace sonicsim::sim {

class EventGraph : public std::enable_shared_from_this<EventGraph> {
 public:
  // Runs module `module` of the event on a thread of the job (held on entry and on return, unless it
  // failed the job), adding its times and requests to `own`; false: it failed the job.
  using RunModule = std::function<bool(int module, EventRecord& own)>;

  // `threads`: the job's threads (a copy shares them), `workers`: how many there are.
  EventGraph(const ModuleGraph& graph, JobThreads threads, int workers, simgrid::s4u::Host* host, std::string name);

  // Runs the event's modules. The caller holds a thread on entry, and holds one again on return
  // when the event is done (true). False: a module failed the job; the modules still under way are
  // stopped, and their requests are the caller's to cancel.
  bool run(EventRecord& record, const RunModule& run_module);
  // Kills the actors still running the stream's modules (the job failed).
  void stop();
  // The stream has no more events: its parked workers end.
  void close();
  // Around an ExternalWork call of the module that the calling actor runs: it gives its thread
  // back, and takes one again for produce().
  void leaving_thread();
  void back_on_thread() { ++workers_; }

 private:
  // The time components of an event record (cpu_s ... thread_wait_s).
  struct Times {
    double cpu_s = 0, preprocess_s = 0, fallback_s = 0, inference_s = 0, thread_wait_s = 0;
  };
  struct Task {
    int pending = 0;    // modules it still waits for
    int critical = -1;  // the module whose end made it ready (-1: ready at the event's start)
    double ready_s = 0;
    EventRecord own;  // its own times, and its requests
    Times path;       // the times of its critical path, itself included
  };

  // A worker's actor: parked between the spells of work it is handed.
  struct Worker {
    simgrid::s4u::Actor* actor = nullptr;
    simgrid::s4u::SemaphorePtr handed = simgrid::s4u::Semaphore::create(0);
    bool holds_thread = false;  // the spell it is handed starts on a thread it already holds
  };

  static void serve(const std::shared_ptr<EventGraph>& self, Worker& worker);
  // A spell of work; false: the job failed, and the actor ends.
  static bool work(const std::shared_ptr<EventGraph>& self, bool holds_thread);
  bool finish(int module);  // true: it was the event's last
  void fail();
  void start_workers(bool first_holds_thread);
  void forget(simgrid::s4u::Actor* actor);

  ModuleGraph graph_;
  std::vector<std::vector<int>> dependents_;
  JobThreads threads_;
  int most_workers_;
  simgrid::s4u::Host* host_;
  std::string name_;
  simgrid::s4u::SemaphorePtr done_;  // released when the event is done or failed

  // The event under way.
  const RunModule* run_module_ = nullptr;
  EventRecord* record_ = nullptr;
  std::vector<Task> tasks_;
  std::deque<int> ready_;
  std::size_t finished_ = 0;
  int last_ = -1;
  bool failed_ = false;
  // The stream's actors: workers (holding a thread or waiting for one; `idle_` of them running no
  // module) and modules in an ExternalWork call. Workers waiting for a thread when an event ends
  // stay for the next one, or give the thread back.
  std::vector<simgrid::s4u::Actor*> actors_;
  std::vector<std::unique_ptr<Worker>> worker_slots_;  // every worker actor made, parked or not
  std::vector<Worker*> parked_;
  bool closed_ = false;
  int workers_ = 0;
  int idle_ = 0;
};

}  // namespace sonicsim::sim
