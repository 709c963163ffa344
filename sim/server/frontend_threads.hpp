#pragma once
// The server frontend's handler threads (Triton's gRPC handler thread pool): each thread parses one
// request or serialises one response at a time, holding itself for the task's cost; tasks wait in
// arrival order for a free thread.
//
// The threads are bookkeeping, not actors: a thread's task ends at a date known when it starts, so a
// SimGrid kernel timer at that date ends it, in maestro. That spares every request the hand-over to
// a thread actor and its sleep (three actor switches and two SimGrid activities). Tasks ending at
// the same date end together, in the order they started, under one timer.
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/dated_ends.hpp"
#include "sim/request.hpp"

namespace sonicsim::sim {

class FrontendThreads {
 public:
  struct Task {
    InFlightRequest* request;
    double bytes;     // response bytes; unused for a request
    bool is_request;  // parse a request, or serialise a response
  };
  // The tensors a request of each model (by index) carries in and out.
  struct Tensors {
    int input = 0, output = 0;
  };
  // `threads` handler threads spending `cost` on each task (the cost of the clients' protocol);
  // `done` is called in maestro, at the date the task ends.
  FrontendThreads(int threads, const FrontendCost& cost, std::vector<Tensors> tensors_by_model,
                  std::function<void(const Task&)> done);

  // A task that costs nothing, arriving while a thread is free, is done the moment it arrives: a
  // thread would take it at once and hold itself for no time.
  bool instant(const Task& task) const { return cost_s(task) <= 0 && busy_ < threads_; }
  // A thread takes the task now if one is free; otherwise it waits its turn.
  void submit(const Task& task);
  // The server process died: every task, waiting or in work, is dropped (their requests returned,
  // in no particular order), and timers already set end nothing.
  std::vector<InFlightRequest*> drop_all();

 private:
  double cost_s(const Task& task) const;
  void start(const Task& task, double now);
  void end_tasks(const std::vector<Task>& tasks);

  int threads_;
  FrontendCost cost_;
  std::vector<Tensors> tensors_by_model_;
  std::function<void(const Task&)> done_;
  int busy_ = 0;
  std::deque<Task> waiting_;
  DatedEnds<Task> in_work_;
};

}  // namespace sonicsim::sim
