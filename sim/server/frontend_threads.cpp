#include "sim/server/frontend_threads.hpp"

#include <utility>

#include <simgrid/s4u/Engine.hpp>

namespace sonicsim::sim {

FrontendThreads::FrontendThreads(int threads, const FrontendCost& cost, std::vector<Tensors> tensors_by_model,
                                 std::function<void(const Task&)> done)
    : threads_(threads),
      cost_(cost),
      tensors_by_model_(std::move(tensors_by_model)),
      done_(std::move(done)),
      in_work_([this](const std::vector<Task>& tasks) { end_tasks(tasks); }) {}

double FrontendThreads::cost_s(const Task& task) const {
  const Tensors& tensors = tensors_by_model_[static_cast<std::size_t>(task.request->record.model)];
  return task.is_request ? cost_.request_s(tensors.input, task.request->record.input_bytes)
                         : cost_.response_s(tensors.output, task.bytes);
}

void FrontendThreads::submit(const Task& task) {
  if (busy_ < threads_)
    start(task, simgrid::s4u::Engine::get_clock());
  else
    waiting_.push_back(task);
}

void FrontendThreads::start(const Task& task, double now) {
  ++busy_;
  in_work_.add(now + cost_s(task), task);
}

// The tasks ending now are done, in the order they started; the threads they free take the waiting
// tasks, which start now.
void FrontendThreads::end_tasks(const std::vector<Task>& tasks) {
  for (const Task& task : tasks) {
    --busy_;
    done_(task);
  }
  const double now = simgrid::s4u::Engine::get_clock();
  while (busy_ < threads_ && !waiting_.empty()) {
    const Task next = waiting_.front();
    waiting_.pop_front();
    start(next, now);
  }
}

std::vector<InFlightRequest*> FrontendThreads::drop_all() {
  std::vector<InFlightRequest*> dropped;
  for (const Task& task : waiting_) dropped.push_back(task.request);
  for (const auto& [date, tasks] : in_work_.pending())
    for (const Task& task : tasks) dropped.push_back(task.request);
  waiting_.clear();
  in_work_.clear();
  busy_ = 0;
  return dropped;
}

}  // namespace sonicsim::sim
