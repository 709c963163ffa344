#include "sim/server/inference_server.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include <simgrid/kernel/Timer.hpp>

#include "models/workload/kernel_latency.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

InferenceServer::InferenceServer(int index, const ServerNode& node, const Scenario& scenario, Recorder& recorder)
    : index_(index), node_(node), recorder_(recorder), queues_(scenario.models.size()) {
  const ServerGroup& group = scenario.platform.servers[node.group];
  if (group.frontend) {
    frontend_.emplace(*group.frontend, [this](const FrontendThreads::Task& task) { frontend_task_done(task); });
    if (group.frontend->per_request_s <= 0) {
      frontend_may_be_free_ = group.frontend->input_rate_Bps <= 0;
      for (const std::string& name : group.models) {
        const ModelSpec& spec = scenario.models[scenario.model_index(name)];
        if (spec.input_bytes_per_item <= 0 && spec.input_bytes_per_element <= 0) frontend_may_be_free_ = true;
      }
    }
  }
  for (const std::string& name : group.models) {
    const int m = scenario.model_index(name);
    const ModelSpec& spec = scenario.models[m];
    auto queue = std::make_unique<ModelQueue>();
    queue->model = m;
    queue->max_batch_size = spec.max_batch_size;
    queue->by_elements = spec.layout != TensorLayout::Fixed;
    queue->preserve_ordering = spec.dynamic_batching && spec.dynamic_batching->preserve_ordering;

    auto add_instance = [&](int gpu) {
      Instance instance;
      instance.index = static_cast<int>(queue->instances.size());
      instance.gpu = gpu;
      instance.device = gpu >= 0 ? node.gpus[gpu] : node.host;
      instance.latency = &spec.latency_for(gpu >= 0 ? group.gpu_type : "cpu");
      recorder_.triton(index_, m).instance_loaded(gpu);
      queue->instances.push_back(std::move(instance));
    };
    // Triton's order: a group's `count` instances on its first GPU, then on the next, ...
    if (spec.instance_groups.empty()) {
      for (int gpu = 0; gpu < group.gpus_per_server; ++gpu)
        for (int k = 0; k < spec.instances_per_gpu; ++k) add_instance(gpu);
    }
    for (const triton::InstanceGroup& g : spec.instance_groups) {
      if (g.passive) continue;  // passive instances get no work from the scheduler
      if (g.kind == triton::InstanceKind::Cpu || g.kind == triton::InstanceKind::Model) {
        for (int k = 0; k < g.count; ++k) add_instance(-1);
        continue;
      }
      std::vector<int> gpus = g.gpus;
      if (gpus.empty())
        for (int gpu = 0; gpu < group.gpus_per_server; ++gpu) gpus.push_back(gpu);
      for (int gpu : gpus)
        for (int k = 0; k < g.count; ++k) add_instance(gpu);
    }

    queue->settings.max_batch_size = spec.max_batch_size;
    queue->settings.dynamic_batching = spec.dynamic_batching;
    queue->settings.instances = static_cast<int>(queue->instances.size());
    queue->settings.wakeup = spec.batcher_wakeup;
    queue->settings.shape_checked = spec.layout == TensorLayout::Padded;
    queues_[m] = std::move(queue);
  }
  // A device shares its time among the kernels running on it once they outnumber its cores.
  std::unordered_map<const sg4::Host*, int> instances_on;
  for (const auto& queue : queues_)
    if (queue)
      for (const Instance& instance : queue->instances) ++instances_on[instance.device];
  for (const auto& queue : queues_)
    if (queue)
      for (Instance& instance : queue->instances)
        instance.shares_device = instances_on[instance.device] > instance.device->get_core_count();
}

void InferenceServer::start() {
  const double now = sg4::Engine::get_clock();
  accepting_ = true;
  for (const sg4::ActorPtr& actor : exited_) actor->kill();
  exited_.clear();
  auto spawn = [this](const std::string& name, std::function<void()> body) {
    sg4::ActorPtr actor = sg4::Actor::create(node_.name + name, node_.host, std::move(body));
    actor->daemonize();
    actors_.push_back(actor);
  };
  if (frontend_) {
    frontend_done_ready_ = sg4::Semaphore::create(0);
    frontend_signalled_ = false;
    spawn("/frontend", [this]() { run_frontend(); });
  }
  for (auto& queue : queues_) {
    if (!queue) continue;
    reset_queue(*queue);
    ModelQueue* q = queue.get();
    for (Instance& instance : queue->instances) {
      instance.work = sg4::Semaphore::create(0);
      queue->idle.emplace(now, instance.index);
      queue->scheduler->instance_idle(now);
      Instance* inst = &instance;
      spawn("/instance", [this, q, inst]() { run_instance(*q, *inst); });
    }
    queue->scheduler->decide(now);
    queue->batcher_wakeup = sg4::Semaphore::create(0);
    spawn("/batcher", [this, q]() { run_batcher(*q); });
  }
}

void InferenceServer::reset_queue(ModelQueue& queue) {
  queue.scheduler = std::make_unique<triton::DynamicBatcher>(queue.settings);
  queue.idle.clear();
  queue.waiting.clear();
  queue.arriving.clear();
  queue.settle_armed = false;
  queue.woken_at_s = 0;
  queue.armed_wakeup_s = std::numeric_limits<double>::infinity();
  queue.batcher_signalled = false;
  queue.rejected.clear();
  queue.next_release = 0;
  queue.held.clear();
  for (Instance& instance : queue.instances) {
    instance.batch.reset();
    instance.kernel = nullptr;
    instance.running.clear();
  }
}

std::int64_t InferenceServer::fail() {
  const double now = sg4::Engine::get_clock();
  up_ = false;
  in_hand_ = 0;
  ++generation_;
  for (const sg4::ActorPtr& actor : actors_) actor->kill();  // a running kernel is cancelled with its actor
  actors_.clear();
  std::vector<InFlightRequest*> lost;
  if (frontend_) lost = frontend_->drop_all();
  for (const FrontendThreads::Task& task : frontend_done_) lost.push_back(task.request);
  frontend_done_.clear();
  for (auto& queue : queues_) {
    if (!queue) continue;
    std::int64_t queued = 0;
    for (const auto& [id, request] : queue->waiting) {
      lost.push_back(request);
      ++queued;
    }
    recorder_.triton(index_, queue->model).pending -= queued;
    lost.insert(lost.end(), queue->arriving.begin(), queue->arriving.end());
    lost.insert(lost.end(), queue->rejected.begin(), queue->rejected.end());
    for (const auto& [order, held] : queue->held) lost.push_back(held.first);
    for (Instance& instance : queue->instances) {
      if (instance.batch) {  // its kernel runs, or has just ended and the actor has not yet answered
        if (instance.kernel) instance.kernel->cancel();  // one its actor had not yet waited for survived the kill
        if (instance.gpu >= 0) recorder_.kernel_finished(index_, instance.gpu, now);
      }
      lost.insert(lost.end(), instance.running.begin(), instance.running.end());
    }
    reset_queue(*queue);
  }
  kernel_ends_.clear();
  // Request ids order the answers: the same run gives the same outputs.
  std::sort(lost.begin(), lost.end(),
            [](const InFlightRequest* a, const InFlightRequest* b) { return a->record.id < b->record.id; });
  for (InFlightRequest* request : lost) send_unavailable(request);
  return static_cast<std::int64_t>(lost.size());
}

void InferenceServer::exit() {
  up_ = false;
  ++generation_;
  exited_ = std::exchange(actors_, {});
}

std::deque<InFlightRequest*> InferenceServer::take_refused() { return std::exchange(refused_, {}); }

void InferenceServer::restart() {
  up_ = true;
  start();
}

void InferenceServer::halt() {
  ++generation_;
  if (frontend_) frontend_->drop_all();
  kernel_ends_.clear();
}

void InferenceServer::send_unavailable(InFlightRequest* request) {
  RequestRecord& record = request->record;
  record.status = RequestStatus::Failed;
  record.failure = FailureCause::Unavailable;
  record.responded_s = sg4::Engine::get_clock();
  request->reply_to->put_init(request, 0)->detach();
}

void InferenceServer::receive(InFlightRequest* request) {
  request->record.arrived_s = sg4::Engine::get_clock();
  if (!up_ || !accepting_) {
    refused_.push_back(request);
    refused_ready_->release();
    return;
  }
  ++in_hand_;
  if (!frontend_ || frontend_->instant({request, 0, true})) return admit(request);
  frontend_->submit({request, 0, true});
}

// In maestro, at the date a handler thread finishes the task. A parsed request reaches a default
// scheduler at once, and the instant is settled at once: what the instant's actors do after it (an
// instance finishing, another request arriving) meets a second settle of the same instant, which
// dispatches exactly what one settle of everything would have (the default scheduler hands each
// idle instance, longest idle first, the head of its queue). That spares the request a hand-over to
// an actor. A dynamic batcher must see the instant whole (an instance finishing then takes its
// payload as it stands, before the batcher sees the instant's arrivals), and so must a scheduler
// that a request can reach without costing the frontend anything: the frontend actor admits those
// requests among the instant's other actors.
void InferenceServer::frontend_task_done(const FrontendThreads::Task& task) {
  if (task.is_request && !frontend_may_be_free_ && !queues_[task.request->record.model]->settings.dynamic_batching)
    return admit(task.request);
  frontend_done_.push_back(task);
  if (!frontend_signalled_) {
    frontend_signalled_ = true;
    frontend_done_ready_->release();
  }
}

// Woken at most once an instant, whatever the number of tasks the threads finished then.
void InferenceServer::run_frontend() {
  for (;;) {
    frontend_done_ready_->acquire();
    frontend_signalled_ = false;
    while (!frontend_done_.empty()) {
      const FrontendThreads::Task task = frontend_done_.front();
      frontend_done_.pop_front();
      if (task.is_request)
        admit(task.request);
      else
        send_response(task.request, task.bytes);
    }
  }
}

// The request reaches its model's scheduler: Triton's statistics start here. It is enqueued at the
// end of the instant, with the instant's other arrivals.
void InferenceServer::admit(InFlightRequest* request) {
  ModelQueue& queue = *queues_[request->record.model];
  RequestRecord& record = request->record;
  record.enqueued_s = sg4::Engine::get_clock();
  // With max_batch_size 0 the model has no batch dimension: every request is one unit.
  if (queue.max_batch_size > 0 && record.items > queue.max_batch_size) {
    mark_rejected(queue, request, RejectReason::BatchTooLarge, false);  // INVALID_ARG at submit
    queue.rejected.push_back(request);  // answered by the server, as every rejection
  } else {
    queue.arriving.push_back(request);
  }
  settle_at_end_of_instant(queue);
}

void InferenceServer::enqueue(ModelQueue& queue, InFlightRequest* request, double now) {
  const RequestRecord& record = request->record;
  const int units = queue.max_batch_size > 0 ? std::max(1, record.items) : 1;
  if (!queue.scheduler->enqueue({record.id, units, now, request->priority, request->timeout_s, request->shape}, now)) {
    mark_rejected(queue, request, RejectReason::QueueFull, false);  // UNAVAILABLE at submit
    queue.rejected.push_back(request);
    return;
  }
  recorder_.triton(index_, queue.model).request_arrived();
  queue.waiting.emplace(record.id, request);
}

// A SimGrid kernel timer set at the current date fires once every actor of the instant has run and
// before time moves on: its callback settles the model then, in maestro. The actors of this
// simulation run one at a time (SimGrid's default, contexts/nthreads 1), so setting the timer from
// an actor needs no simcall.
void InferenceServer::settle_at_end_of_instant(ModelQueue& queue) {
  if (queue.settle_armed) return;
  queue.settle_armed = true;
  ModelQueue* q = &queue;
  simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock(), [this, q, generation = generation_] {
    if (generation != generation_) return;  // set before the server failed
    q->settle_armed = false;
    settle(*q);
  });
}

// Everything that happened to the model during this instant is known: the instant's arrivals are
// enqueued in the order they were sent (request ids), the scheduler decides, and the instances it
// gave batches to are woken. Runs in maestro: what must be done by an actor (answering rejected
// requests, re-arming the batcher's timer) is left to the batcher actor.
void InferenceServer::settle(ModelQueue& queue) {
  // The clock may land an ulp short of a wake-up time; the scheduler must see its own time.
  const double now = std::max(sg4::Engine::get_clock(), queue.woken_at_s);
  std::sort(queue.arriving.begin(), queue.arriving.end(),
            [](const InFlightRequest* a, const InFlightRequest* b) { return a->record.id < b->record.id; });
  for (InFlightRequest* request : queue.arriving) enqueue(queue, request, now);
  queue.arriving.clear();
  queue.scheduler->decide(now);
  for (triton::FormedBatch& batch : queue.scheduler->take_dispatched()) {
    Instance& instance = queue.instances[queue.idle.begin()->second];
    queue.idle.erase(queue.idle.begin());
    start_batch(queue, instance, std::move(batch));
  }
  for (const triton::QueuedRequest& timed_out : queue.scheduler->take_timed_out()) {
    const auto it = queue.waiting.find(timed_out.id);
    InFlightRequest* request = it->second;
    queue.waiting.erase(it);
    mark_rejected(queue, request, RejectReason::TimedOut, true);
    queue.rejected.push_back(request);
  }
  // Not == : the armed time is NaN while the batcher actor waits for this settle.
  const bool rearm = !(queue.scheduler->next_wakeup_s() == queue.armed_wakeup_s);
  if ((rearm || !queue.rejected.empty()) && !queue.batcher_signalled) {
    queue.batcher_signalled = true;
    queue.batcher_wakeup->release();
  }
}

// The batcher thread's own timer (a batching delay, a request deadline, a 500 ms tick), and the
// answers to requests the scheduler rejected.
void InferenceServer::run_batcher(ModelQueue& queue) {
  for (;;) {
    queue.batcher_signalled = false;
    while (!queue.rejected.empty()) {
      InFlightRequest* request = queue.rejected.front();
      queue.rejected.pop_front();
      respond(request, 0);
    }
    const double wakeup = queue.scheduler->next_wakeup_s();
    queue.armed_wakeup_s = wakeup;
    if (std::isinf(wakeup)) {
      queue.batcher_wakeup->acquire();
      continue;
    }
    const double wait = wakeup - sg4::Engine::get_clock();
    if (wait > 0 && !queue.batcher_wakeup->acquire_timeout(wait)) continue;  // woken to re-arm or answer
    // The timer ran out: the scheduler acts at the end of this instant, after its other events.
    queue.woken_at_s = std::max(sg4::Engine::get_clock(), wakeup);
    queue.scheduler->wake(queue.woken_at_s);
    queue.armed_wakeup_s = std::numeric_limits<double>::quiet_NaN();
    settle_at_end_of_instant(queue);
    queue.batcher_wakeup->acquire();
  }
}

void InferenceServer::mark_rejected(ModelQueue& queue, InFlightRequest* request, RejectReason reason,
                                    bool counted_by_triton) {
  const double now = sg4::Engine::get_clock();
  request->record.status = RequestStatus::Rejected;
  request->record.reject_reason = reason;
  request->record.exec_start_s = request->record.exec_end_s = now;
  if (counted_by_triton) recorder_.triton(index_, queue.model).request_failed(request->record, now);
}

void InferenceServer::respond(InFlightRequest* request, double bytes) {
  if (!frontend_ || frontend_->instant({request, bytes, false})) return send_response(request, bytes);
  frontend_->submit({request, bytes, false});
}

// The answer is on its way once put: only then may a draining server's last answer wake its pod.
void InferenceServer::send_response(InFlightRequest* request, double bytes) {
  request->record.responded_s = sg4::Engine::get_clock();
  request->reply_to->put_init(request, static_cast<std::uint64_t>(bytes))->detach();
  if (--in_hand_ == 0 && !accepting_) refused_ready_->release();
}

// With preserve_ordering a response waits until every request that left the queue before it has
// been answered (the intended Triton behaviour; statistics are unaffected).
void InferenceServer::release_in_order(ModelQueue& queue, std::int64_t order, InFlightRequest* request, double bytes) {
  if (!queue.preserve_ordering) {
    respond(request, bytes);
    return;
  }
  queue.held.emplace(order, std::make_pair(request, bytes));
  while (!queue.held.empty() && queue.held.begin()->first == queue.next_release) {
    const auto [held, held_bytes] = queue.held.begin()->second;
    queue.held.erase(queue.held.begin());
    respond(held, held_bytes);
    ++queue.next_release;
  }
}

// The instance takes its batch and starts the kernel on its device. Called by settle() in maestro,
// where SimGrid runs calls directly: the kernel starts without the instance actor's own calls to
// SimGrid (an Exec's set_flops_amount, set_host and start are one actor switch each), at the same
// simulated time the actor would have started it. A kernel alone on its device ends at the date a
// SimGrid execution would (its flops over the device's speed), on a timer: the instance's actor is
// woken once, at that date, instead of at the start and again at the end, and SimGrid's sharing
// model is spared an activity whose share cannot change.
void InferenceServer::start_batch(ModelQueue& queue, Instance& instance, triton::FormedBatch batch) {
  const double start = sg4::Engine::get_clock();
  std::vector<InFlightRequest*>& requests = instance.running;
  requests.clear();
  requests.reserve(batch.requests.size());
  for (const triton::BatchedRequest& r : batch.requests) {
    const auto it = queue.waiting.find(r.id);
    InFlightRequest* request = it->second;
    queue.waiting.erase(it);
    request->record.exec_start_s = start;
    requests.push_back(request);
  }

  recorder_.triton(index_, queue.model).execution_started(static_cast<int>(requests.size()));
  if (instance.gpu >= 0) recorder_.kernel_started(index_, instance.gpu, start);
  double kernel_units = batch.units;
  if (queue.by_elements) {
    kernel_units = 0;
    for (const InFlightRequest* r : requests) kernel_units += static_cast<double>(r->elements);
  }
  instance.batch = std::move(batch);
  const double flops = kernel_latency_s(*instance.latency, kernel_units) * kReferenceSpeed;
  if (instance.shares_device) {
    // Exec::init + set_host: SimGrid 3.32's Host::exec_async runs on the *caller's* host instead.
    instance.kernel = sg4::Exec::init();
    instance.kernel->set_flops_amount(flops)->set_host(instance.device)->start();
    instance.work->release();
    return;
  }
  kernel_ends_.add(start + flops / instance.device->get_speed(), &instance);
}

// In maestro: the instances whose kernels end now answer, in the order the kernels started.
void InferenceServer::end_kernels(const std::vector<Instance*>& instances) {
  for (Instance* instance : instances) instance->work->release();
}

void InferenceServer::run_instance(ModelQueue& queue, Instance& instance) {
  for (;;) {
    instance.work->acquire();
    if (instance.kernel) instance.kernel->wait();
    const double start = instance.running.front()->record.exec_start_s;
    const double end = sg4::Engine::get_clock();
    instance.kernel = nullptr;
    if (instance.gpu >= 0) recorder_.kernel_finished(index_, instance.gpu, end);
    const triton::FormedBatch batch = std::move(*instance.batch);
    instance.batch.reset();
    const std::vector<InFlightRequest*> requests = instance.running;

    const std::int64_t batch_id = recorder_.new_batch_id();
    std::vector<const RequestRecord*> records;
    records.reserve(requests.size());
    for (InFlightRequest* r : requests) {
      r->record.exec_end_s = end;
      r->record.batch = batch_id;
      r->record.status = RequestStatus::Completed;
      records.push_back(&r->record);
    }
    // No input/output copies are modelled: compute_start = exec_start and compute_end = exec_end.
    recorder_.triton(index_, queue.model).batch_executed(instance.gpu, records, batch.units, {start, start, end, end});
    // A request leaves `running` as its answer goes out: sending yields, and a server failing in
    // that instant must still find the answers not yet sent.
    for (std::size_t i = 0; i < requests.size(); ++i) {
      instance.running.erase(instance.running.begin());
      release_in_order(queue, batch.requests[i].order, requests[i], requests[i]->record.output_bytes);
    }
    recorder_.batch_executed({batch_id, index_, queue.model, instance.index, instance.gpu,
                              static_cast<int>(requests.size()), batch.units, start, end});
    queue.idle.emplace(end, instance.index);
    queue.scheduler->instance_idle(end);
    settle_at_end_of_instant(queue);
  }
}

std::vector<std::unique_ptr<InferenceServer>> start_servers(const Scenario& scenario, const FarmPlatform& farm,
                                                            Recorder& recorder, const std::vector<bool>& running) {
  std::vector<std::unique_ptr<InferenceServer>> servers;
  for (std::size_t s = 0; s < farm.servers.size(); ++s) {
    servers.push_back(std::make_unique<InferenceServer>(static_cast<int>(s), farm.servers[s], scenario, recorder));
    if (running.empty() || running[s])
      servers.back()->start();
    else
      servers.back()->start_down();
  }
  return servers;
}

}  // namespace sonicsim::sim
