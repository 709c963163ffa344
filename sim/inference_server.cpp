#include "sim/inference_server.hpp"

#include "models/fifo_scheduler.hpp"
#include "models/kernel_latency.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

InferenceServer::InferenceServer(int index, const ServerNode& node, const Scenario& scenario, Recorder& recorder)
    : index_(index), node_(node), recorder_(recorder), queues_(scenario.models.size()) {
  const ServerGroup& group = scenario.platform.servers[node.group];
  for (const std::string& name : group.models) {
    const int m = scenario.model_index(name);
    const ModelSpec& spec = scenario.models[m];
    auto queue = std::make_unique<ModelQueue>();
    queue->model = m;
    queue->max_batch_size = spec.max_batch_size;
    queue->output_bytes_per_item = spec.output_bytes_per_item;
    queue->latency = &spec.latency_for(group.gpu_type);
    queue->scheduler = std::make_unique<FifoScheduler>();
    // Triton's order: `count` instances on GPU 0, then on GPU 1, ...
    for (int gpu = 0; gpu < group.gpus_per_server; ++gpu) {
      for (int k = 0; k < spec.instances_per_gpu; ++k) {
        Instance instance;
        instance.index = static_cast<int>(queue->instances.size());
        instance.gpu = gpu;
        queue->instances.push_back(std::move(instance));
      }
    }
    queues_[m] = std::move(queue);
  }
}

void InferenceServer::start() {
  for (auto& queue : queues_) {
    if (!queue) continue;
    for (Instance& instance : queue->instances) {
      instance.work = sg4::Semaphore::create(0);
      queue->idle.push_back(instance.index);
      ModelQueue* q = queue.get();
      Instance* inst = &instance;
      sg4::Actor::create(node_.name + "/instance", node_.host, [this, q, inst]() { run_instance(*q, *inst); })
          ->daemonize();
    }
  }
}

void InferenceServer::receive(InFlightRequest* request) {
  ModelQueue& queue = *queues_[request->record.model];
  const double now = sg4::Engine::get_clock();
  request->record.arrived_s = now;
  if (request->record.items > queue.max_batch_size) {
    // Triton rejects it at submission (INVALID_ARG: batch-size must be <= max_batch_size).
    request->record.status = RequestStatus::Rejected;
    request->record.exec_start_s = request->record.exec_end_s = now;
    respond(request, 0);
    return;
  }
  queue.waiting.emplace(request->record.id, request);
  queue.scheduler->enqueue({request->record.id, request->record.items, now}, now);
  dispatch(queue);
}

void InferenceServer::dispatch(ModelQueue& queue) {
  const double now = sg4::Engine::get_clock();
  while (!queue.idle.empty()) {
    std::optional<FormedBatch> batch = queue.scheduler->next_batch(now);
    if (!batch) return;
    Instance& instance = queue.instances[queue.idle.front()];
    queue.idle.pop_front();
    instance.assigned = std::move(batch);
    instance.work->release();
  }
}

void InferenceServer::respond(InFlightRequest* request, double bytes) {
  request->reply_to->put_init(request, static_cast<std::uint64_t>(bytes))->detach();
}

void InferenceServer::run_instance(ModelQueue& queue, Instance& instance) {
  sg4::Host* gpu = node_.gpus[instance.gpu];
  for (;;) {
    instance.work->acquire();
    const FormedBatch batch = std::move(*instance.assigned);
    instance.assigned.reset();

    const double start = sg4::Engine::get_clock();
    std::vector<InFlightRequest*> requests;
    requests.reserve(batch.requests.size());
    for (std::int64_t id : batch.requests) {
      auto it = queue.waiting.find(id);
      requests.push_back(it->second);
      queue.waiting.erase(it);
      it->second->record.exec_start_s = start;
    }

    recorder_.kernel_started(index_, instance.gpu, start);
    // Exec::init + set_host: SimGrid 3.32's Host::exec_async runs on the *caller's* host instead.
    sg4::Exec::init()
        ->set_flops_amount(kernel_latency_s(*queue.latency, batch.units) * kReferenceSpeed)
        ->set_host(gpu)
        ->start()
        ->wait();
    const double end = sg4::Engine::get_clock();
    recorder_.kernel_finished(index_, instance.gpu, end);

    const std::int64_t batch_id = recorder_.new_batch_id();
    for (InFlightRequest* r : requests) {
      r->record.exec_end_s = end;
      r->record.batch = batch_id;
      r->record.status = RequestStatus::Completed;
      respond(r, r->record.items * queue.output_bytes_per_item);
    }
    recorder_.batch_executed({batch_id, index_, queue.model, instance.index, instance.gpu,
                              static_cast<int>(requests.size()), batch.units, start, end});
    queue.idle.push_back(instance.index);
    dispatch(queue);
  }
}

}  // namespace sonicsim::sim
