#include "sim/frontend_threads.hpp"

#include <utility>

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace sonicsim::sim {

FrontendThreads::FrontendThreads(const FrontendSpec& spec, std::function<void(const Task&)> done)
    : spec_(spec), done_(std::move(done)) {}

double FrontendThreads::cost_s(const Task& task) const {
  return task.is_request ? spec_.request_s(task.request->record.input_bytes) : spec_.response_s(task.bytes);
}

void FrontendThreads::submit(const Task& task) {
  if (busy_ < spec_.threads)
    start(task, simgrid::s4u::Engine::get_clock());
  else
    waiting_.push_back(task);
}

// Setting a kernel timer needs no simcall: this simulation's actors run one at a time (SimGrid's
// default, contexts/nthreads 1), and maestro sets it directly.
void FrontendThreads::start(const Task& task, double now) {
  ++busy_;
  const double end = now + cost_s(task);
  auto [due, first] = in_work_.try_emplace(end);
  due->second.push_back(task);
  if (first)
    simgrid::kernel::timer::Timer::set(end, [this, end, generation = generation_] { end_tasks_due(end, generation); });
}

// The tasks ending now are done, in the order they started; the threads they free take the waiting
// tasks, which start now.
void FrontendThreads::end_tasks_due(double date, std::uint64_t generation) {
  if (generation != generation_) return;  // set before the server failed
  const auto due = in_work_.find(date);
  const std::vector<Task> tasks = std::move(due->second);
  in_work_.erase(due);
  for (const Task& task : tasks) {
    --busy_;
    done_(task);
  }
  const double now = simgrid::s4u::Engine::get_clock();
  while (busy_ < spec_.threads && !waiting_.empty()) {
    const Task next = waiting_.front();
    waiting_.pop_front();
    start(next, now);
  }
}

std::vector<InFlightRequest*> FrontendThreads::drop_all() {
  std::vector<InFlightRequest*> dropped;
  for (const Task& task : waiting_) dropped.push_back(task.request);
  for (const auto& [date, tasks] : in_work_)
    for (const Task& task : tasks) dropped.push_back(task.request);
  waiting_.clear();
  in_work_.clear();
  busy_ = 0;
  ++generation_;
  return dropped;
}

}  // namespace sonicsim::sim
