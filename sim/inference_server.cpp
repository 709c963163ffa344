#include "sim/inference_server.hpp"

#include <algorithm>
#include <cmath>

#include "models/kernel_latency.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

InferenceServer::InferenceServer(int index, const ServerNode& node, const Scenario& scenario, Recorder& recorder)
    : index_(index), node_(node), recorder_(recorder), queues_(scenario.models.size()) {
  const ServerGroup& group = scenario.platform.servers[node.group];
  frontend_ = group.frontend;
  for (const std::string& name : group.models) {
    const int m = scenario.model_index(name);
    const ModelSpec& spec = scenario.models[m];
    auto queue = std::make_unique<ModelQueue>();
    queue->model = m;
    queue->max_batch_size = spec.max_batch_size;
    queue->output_bytes_per_item = spec.output_bytes_per_item;
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

    triton::SchedulerSettings settings;
    settings.max_batch_size = spec.max_batch_size;
    settings.dynamic_batching = spec.dynamic_batching;
    settings.instances = static_cast<int>(queue->instances.size());
    settings.wakeup = spec.batcher_wakeup;
    queue->scheduler = std::make_unique<triton::DynamicBatcher>(std::move(settings));
    queues_[m] = std::move(queue);
  }
}

void InferenceServer::start() {
  if (frontend_) {
    frontend_ready_ = sg4::Semaphore::create(0);
    for (int t = 0; t < frontend_->threads; ++t)
      sg4::Actor::create(node_.name + "/frontend", node_.host, [this]() { run_frontend_thread(); })->daemonize();
  }
  for (auto& queue : queues_) {
    if (!queue) continue;
    ModelQueue* q = queue.get();
    for (Instance& instance : queue->instances) {
      instance.work = sg4::Semaphore::create(0);
      queue->idle.push_back(instance.index);
      queue->scheduler->instance_idle(0.0);
      Instance* inst = &instance;
      sg4::Actor::create(node_.name + "/instance", node_.host, [this, q, inst]() { run_instance(*q, *inst); })
          ->daemonize();
    }
    queue->timer_mutex = sg4::Mutex::create();
    queue->timer_changed = sg4::ConditionVariable::create();
    queue->timer_armed_s = queue->scheduler->next_wakeup_s();
    sg4::Actor::create(node_.name + "/batcher", node_.host, [this, q]() { run_timer(*q); })->daemonize();
  }
}

void InferenceServer::receive(InFlightRequest* request) {
  request->record.arrived_s = sg4::Engine::get_clock();
  if (!frontend_ || frontend_instant(frontend_->request_s(request->record.input_bytes))) return admit(request);
  queue_frontend_task({request, 0, true});
}

// A task that costs nothing, arriving while a thread is free, is done the moment it arrives: a
// thread would take it at once and hold itself for no time. Doing it here spares the hand-over.
bool InferenceServer::frontend_instant(double cost_s) const {
  return cost_s <= 0 && frontend_tasks_in_hand_ < frontend_->threads;
}

void InferenceServer::queue_frontend_task(const FrontendTask& task) {
  ++frontend_tasks_in_hand_;
  frontend_tasks_.push_back(task);
  frontend_ready_->release();
}

// A handler thread takes tasks in arrival order and holds itself for each task's cost.
void InferenceServer::run_frontend_thread() {
  while (true) {
    frontend_ready_->acquire();
    const FrontendTask task = frontend_tasks_.front();
    frontend_tasks_.pop_front();
    const RequestRecord& record = task.request->record;
    sg4::this_actor::sleep_for(task.is_request ? frontend_->request_s(record.input_bytes) : frontend_->response_s(task.bytes));
    --frontend_tasks_in_hand_;
    if (task.is_request)
      admit(task.request);
    else
      send_response(task.request, task.bytes);
  }
}

// The request enters its model's scheduler: Triton's statistics start here.
void InferenceServer::admit(InFlightRequest* request) {
  ModelQueue& queue = *queues_[request->record.model];
  const double now = sg4::Engine::get_clock();
  RequestRecord& record = request->record;
  record.enqueued_s = now;
  // With max_batch_size 0 the model has no batch dimension: every request is one unit.
  if (queue.max_batch_size > 0 && record.items > queue.max_batch_size) {
    reject(queue, request, RejectReason::BatchTooLarge, false);  // INVALID_ARG at submit
    return;
  }
  const int units = queue.max_batch_size > 0 ? std::max(1, record.items) : 1;
  if (!queue.scheduler->enqueue({record.id, units, now, request->priority, request->timeout_s}, now)) {
    reject(queue, request, RejectReason::QueueFull, false);  // UNAVAILABLE at submit
    return;
  }
  recorder_.triton(index_, queue.model).request_arrived();
  queue.waiting.emplace(record.id, request);
  after_scheduler_event(queue);
}

// Hands dispatched batches to idle instances, answers timed-out requests and re-arms the timer.
void InferenceServer::after_scheduler_event(ModelQueue& queue) {
  for (triton::FormedBatch& batch : queue.scheduler->take_dispatched()) {
    Instance& instance = queue.instances[queue.idle.front()];
    queue.idle.pop_front();
    instance.assigned = std::move(batch);
    instance.work->release();
  }
  for (const triton::QueuedRequest& timed_out : queue.scheduler->take_timed_out()) {
    const auto it = queue.waiting.find(timed_out.id);
    InFlightRequest* request = it->second;
    queue.waiting.erase(it);
    reject(queue, request, RejectReason::TimedOut, true);
  }
  const double wakeup = queue.scheduler->next_wakeup_s();
  if (wakeup != queue.timer_armed_s) {
    queue.timer_armed_s = wakeup;
    queue.timer_changed->notify_all();
  }
}

void InferenceServer::run_timer(ModelQueue& queue) {
  std::unique_lock lock(*queue.timer_mutex);
  for (;;) {
    const double wakeup = queue.timer_armed_s;
    if (std::isinf(wakeup)) {
      queue.timer_changed->wait(lock);
      continue;
    }
    if (queue.timer_changed->wait_until(lock, wakeup) == std::cv_status::no_timeout) continue;
    if (queue.timer_armed_s != wakeup) continue;
    // The clock may land an ulp short of the requested time; the scheduler must see its own time.
    queue.scheduler->wake(std::max(sg4::Engine::get_clock(), wakeup));
    queue.timer_armed_s = -1;  // forces a re-arm below even if the next wake-up is the same time
    after_scheduler_event(queue);
  }
}

void InferenceServer::reject(ModelQueue& queue, InFlightRequest* request, RejectReason reason, bool counted_by_triton) {
  const double now = sg4::Engine::get_clock();
  request->record.status = RequestStatus::Rejected;
  request->record.reject_reason = reason;
  request->record.exec_start_s = request->record.exec_end_s = now;
  if (counted_by_triton) recorder_.triton(index_, queue.model).request_failed(request->record, now);
  respond(request, 0);
}

void InferenceServer::respond(InFlightRequest* request, double bytes) {
  if (!frontend_ || frontend_instant(frontend_->response_s(bytes))) return send_response(request, bytes);
  queue_frontend_task({request, bytes, false});
}

void InferenceServer::send_response(InFlightRequest* request, double bytes) {
  request->record.responded_s = sg4::Engine::get_clock();
  request->reply_to->put_init(request, static_cast<std::uint64_t>(bytes))->detach();
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

void InferenceServer::run_instance(ModelQueue& queue, Instance& instance) {
  for (;;) {
    instance.work->acquire();
    const triton::FormedBatch batch = std::move(*instance.assigned);
    instance.assigned.reset();

    const double start = sg4::Engine::get_clock();
    std::vector<InFlightRequest*> requests;
    std::vector<const RequestRecord*> records;
    requests.reserve(batch.requests.size());
    records.reserve(batch.requests.size());
    for (const triton::BatchedRequest& r : batch.requests) {
      const auto it = queue.waiting.find(r.id);
      InFlightRequest* request = it->second;
      queue.waiting.erase(it);
      request->record.exec_start_s = start;
      requests.push_back(request);
      records.push_back(&request->record);
    }

    recorder_.triton(index_, queue.model).execution_started(static_cast<int>(requests.size()));
    if (instance.gpu >= 0) recorder_.kernel_started(index_, instance.gpu, start);
    // Exec::init + set_host: SimGrid 3.32's Host::exec_async runs on the *caller's* host instead.
    sg4::Exec::init()
        ->set_flops_amount(kernel_latency_s(*instance.latency, batch.units) * kReferenceSpeed)
        ->set_host(instance.device)
        ->start()
        ->wait();
    const double end = sg4::Engine::get_clock();
    if (instance.gpu >= 0) recorder_.kernel_finished(index_, instance.gpu, end);

    const std::int64_t batch_id = recorder_.new_batch_id();
    for (InFlightRequest* r : requests) {
      r->record.exec_end_s = end;
      r->record.batch = batch_id;
      r->record.status = RequestStatus::Completed;
    }
    // No input/output copies are modelled: compute_start = exec_start and compute_end = exec_end.
    recorder_.triton(index_, queue.model).batch_executed(instance.gpu, records, batch.units, {start, start, end, end});
    for (std::size_t i = 0; i < requests.size(); ++i)
      release_in_order(queue, batch.requests[i].order, requests[i], requests[i]->record.items * queue.output_bytes_per_item);
    recorder_.batch_executed({batch_id, index_, queue.model, instance.index, instance.gpu,
                              static_cast<int>(requests.size()), batch.units, start, end});
    queue.idle.push_back(instance.index);
    queue.scheduler->instance_idle(end);
    after_scheduler_event(queue);
  }
}

std::vector<std::unique_ptr<InferenceServer>> start_servers(const Scenario& scenario, const FarmPlatform& farm,
                                                            Recorder& recorder) {
  std::vector<std::unique_ptr<InferenceServer>> servers;
  for (std::size_t s = 0; s < farm.servers.size(); ++s) {
    servers.push_back(std::make_unique<InferenceServer>(static_cast<int>(s), farm.servers[s], scenario, recorder));
    servers.back()->start();
  }
  return servers;
}

}  // namespace sonicsim::sim
