#include "sim/client/event_graph.hpp"

#include <algorithm>
#include <utility>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

template <class To, class From>
void add_times(To& to, const From& from) {
  to.cpu_s += from.cpu_s;
  to.preprocess_s += from.preprocess_s;
  to.fallback_s += from.fallback_s;
  to.inference_s += from.inference_s;
  to.thread_wait_s += from.thread_wait_s;
}

void add_requests(EventRecord& to, const EventRecord& from) {
  to.network_s += from.network_s;
  to.frontend_s += from.frontend_s;
  to.queue_s += from.queue_s;
  to.gpu_s += from.gpu_s;
  to.requests += from.requests;
  to.rejected_requests += from.rejected_requests;
}

}  // namespace

EventGraph::EventGraph(const ModuleGraph& graph, JobThreads threads, int workers, sg4::Host* host, std::string name)
    : graph_(graph),
      dependents_(graph.dependents()),
      threads_(std::move(threads)),
      most_workers_(workers),
      host_(host),
      name_(std::move(name)),
      done_(sg4::Semaphore::create(0)),
      tasks_(graph.after.size()) {}

bool EventGraph::run(EventRecord& record, const RunModule& run_module) {
  run_module_ = &run_module;
  record_ = &record;
  finished_ = 0;
  last_ = -1;
  failed_ = false;
  const double now = sg4::Engine::get_clock();
  for (std::size_t m = 0; m < tasks_.size(); ++m) {
    tasks_[m] = Task{};
    tasks_[m].pending = static_cast<int>(graph_.after[m].size());
    if (tasks_[m].pending == 0) {
      tasks_[m].ready_s = now;
      ready_.push_back(static_cast<int>(m));
    }
  }
  start_workers(true);  // the stream's thread runs the first ready module
  done_->acquire();
  if (failed_) {
    stop();
    return false;
  }
  add_times(record, tasks_[static_cast<std::size_t>(last_)].path);
  return true;
}

// New workers while fewer wait for work than there are ready modules, up to one per thread: a
// parked one if there is one, else a new actor.
void EventGraph::start_workers(bool first_holds_thread) {
  while (first_holds_thread || (idle_ < static_cast<int>(ready_.size()) && workers_ < most_workers_)) {
    ++workers_;
    ++idle_;
    if (!parked_.empty()) {
      Worker* worker = parked_.back();
      parked_.pop_back();
      worker->holds_thread = first_holds_thread;
      worker->handed->release();
    } else {
      const std::string name = name_ + "#" + std::to_string(worker_slots_.size());
      Worker& worker = *worker_slots_.emplace_back(std::make_unique<Worker>());
      worker.holds_thread = first_holds_thread;
      worker.actor =
          sg4::Actor::create(name, host_, [self = shared_from_this(), &worker] { serve(self, worker); }).get();
      actors_.push_back(worker.actor);
    }
    first_holds_thread = false;
  }
}

void EventGraph::serve(const std::shared_ptr<EventGraph>& self, Worker& worker) {
  while (work(self, worker.holds_thread)) {
    self->parked_.push_back(&worker);
    worker.handed->acquire();
    if (self->closed_) break;
  }
  self->forget(worker.actor);
}

// A spell of a worker: it takes the next ready module while there is one, on the thread it holds.
bool EventGraph::work(const std::shared_ptr<EventGraph>& self, bool holds_thread) {
  EventGraph& g = *self;
  if (!holds_thread) g.threads_.acquire();
  for (;;) {
    if (g.ready_.empty() || g.failed_) {
      --g.workers_;
      --g.idle_;
      g.threads_.release();
      return true;
    }
    const int m = g.ready_.front();
    g.ready_.pop_front();
    --g.idle_;
    Task& task = g.tasks_[static_cast<std::size_t>(m)];
    task.own.thread_wait_s += sg4::Engine::get_clock() - task.ready_s;
    if (!(*g.run_module_)(m, task.own)) {  // the job ends: what its threads do no longer matters
      g.fail();
      return false;
    }
    ++g.idle_;
    if (g.failed_ || g.finish(m)) {  // the event is over: the stream has this thread
      --g.workers_;
      --g.idle_;
      return true;
    }
  }
}

bool EventGraph::finish(int module) {
  Task& task = tasks_[static_cast<std::size_t>(module)];
  task.path = task.critical < 0 ? Times{} : tasks_[static_cast<std::size_t>(task.critical)].path;
  add_times(task.path, task.own);
  add_requests(*record_, task.own);
  if (++finished_ == tasks_.size()) {
    last_ = module;
    done_->release();
    return true;
  }
  const double now = sg4::Engine::get_clock();
  for (const int d : dependents_[static_cast<std::size_t>(module)]) {
    Task& next = tasks_[static_cast<std::size_t>(d)];
    if (--next.pending > 0) continue;
    next.critical = module;
    next.ready_s = now;
    ready_.push_back(d);
  }
  start_workers(false);
  return false;
}

void EventGraph::fail() {
  if (failed_) return;  // another module failed the job at this instant
  failed_ = true;
  ready_.clear();
  done_->release();
}

// The module's actor stops being a worker (it was a busy one) until its call is answered: another
// may take the ready modules on the thread it frees.
void EventGraph::leaving_thread() {
  --workers_;
  start_workers(false);
}

// The stream's actors still running stop where they are, and the parked ones with them; a kill lets
// the actors ready at this instant run a step, which may end some of them (they leave actors_
// themselves).
void EventGraph::stop() {
  while (!actors_.empty()) {
    sg4::Actor* actor = actors_.back();
    actors_.pop_back();
    actor->kill();
  }
  parked_.clear();
  ready_.clear();
  workers_ = 0;
  idle_ = 0;
}

void EventGraph::close() {
  closed_ = true;
  for (Worker* worker : parked_) worker->handed->release();
  parked_.clear();
}

void EventGraph::forget(sg4::Actor* actor) {
  const auto at = std::find(actors_.begin(), actors_.end(), actor);
  if (at != actors_.end()) actors_.erase(at);
}

}  // namespace sonicsim::sim
