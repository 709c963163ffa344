#include "sim/server/inference_server.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

InferenceServer::InferenceServer(int index, const ServerNode& node, const Scenario& scenario, Recorder& recorder)
    : index_(index), node_(node), recorder_(recorder), queues_(scenario.models.size()) {
  const ServerGroup& group = scenario.platform.servers[node.group];
  if (group.frontend) {
    const FrontendCost& cost = group.frontend->cost_for(scenario.client_protocol());
    std::vector<FrontendThreads::Tensors> tensors(scenario.models.size());
    for (const std::string& name : group.models) {
      const ModelSpec& spec = scenario.models[scenario.model_index(name)];
      tensors[scenario.model_index(name)] = {spec.input_tensors(), spec.output_tensors()};
      // Whether parsing one of its requests can cost nothing.
      const bool bytes_free =
          cost.input_rate_Bps <= 0 || (spec.input_bytes_per_item <= 0 && spec.input_bytes_per_element <= 0);
      if (cost.per_request_s <= 0 && cost.per_input_tensor_s * spec.input_tensors() <= 0 && bytes_free)
        frontend_may_be_free_ = true;
    }
    frontend_.emplace(group.frontend->threads, cost, std::move(tensors),
                      [this](const FrontendThreads::Task& task) { frontend_task_done(task); });
  }
  ModelQueue::Responder& responder = *this;
  for (const std::string& name : group.models) {
    const int m = scenario.model_index(name);
    const ModelSpec& spec = scenario.models[m];
    auto queue = std::make_unique<ModelQueue>(index_, m, spec, recorder_, responder, kernel_ends_);
    auto add_instance = [&](int gpu) {
      const bool on_gpu = gpu >= 0;
      const std::string& type = on_gpu ? group.gpu_type : "cpu";
      queue->add_instance(gpu, on_gpu ? node.gpus[gpu] : node.host, spec.latency_for(type), spec.spread_for(type),
                          scenario.simulation.seed);
    };
    // Triton's order: a group's `count` instances on its first GPU, then on the next, ...
    if (spec.triton.instance_groups.empty()) {
      for (int gpu = 0; gpu < group.gpus_per_server; ++gpu)
        for (int k = 0; k < spec.instances_per_gpu; ++k) add_instance(gpu);
    }
    for (const triton::InstanceGroup& g : spec.triton.instance_groups) {
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
    queues_[m] = std::move(queue);
  }
  // A device shares its time among the kernels running on it once they outnumber its cores.
  std::unordered_map<const sg4::Host*, int> instances_on;
  for (const auto& queue : queues_)
    if (queue)
      for (const ModelQueue::Instance& instance : queue->instances()) ++instances_on[instance.device];
  // Without an overlap fraction or occupancies SimGrid time-shares the device, unless a switching cost
  // asks for the simulator's own clock (time-sharing there too: f = 0).
  const double switch_cost_s = group.kernel_switch_cost_s;
  std::optional<DeviceSharing> sharing;
  if (group.kernel_overlap || switch_cost_s > 0)
    sharing = DeviceSharing::by_overlap(group.kernel_overlap.value_or(0), switch_cost_s);
  if (group.kernel_sharing == KernelSharing::Occupancy)
    sharing = DeviceSharing::by_occupancy(group.kernel_interference, switch_cost_s);
  if (sharing) shared_devices_.resize(group.gpus_per_server);
  for (const auto& queue : queues_)
    if (queue)
      for (ModelQueue::Instance& instance : queue->instances()) {
        instance.time_shares_device = instances_on[instance.device] > instance.device->get_core_count();
        if (instance.time_shares_device && instance.gpu >= 0 && sharing) share_device(instance, *sharing);
      }
}

// The instance's kernels go to its GPU's SimulatedSharedDevice instead of SimGrid; it ends them by
// waking the instance.
// The instances of one server share one CUDA context, each on its own stream, so their kernels run
// side by side (scenarios/README.md, "Kernels sharing a device").
void InferenceServer::share_device(ModelQueue::Instance& instance, DeviceSharing sharing) {
  SharedDeviceSlots& gpu = shared_devices_[instance.gpu];  // sized before: the end callback keeps its address
  if (!gpu.device)
    gpu.device = std::make_unique<SimulatedSharedDevice>(sharing, [&gpu](const std::vector<int>& slots) {
      for (int slot : slots) gpu.instances[slot]->work->release();
    });
  instance.time_shares_device = false;
  instance.shared_device = gpu.device.get();
  instance.device_slot = static_cast<int>(gpu.instances.size());
  gpu.instances.push_back(&instance);
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
  for (auto& queue : queues_)
    if (queue) queue->start(now, spawn);
}

std::int64_t InferenceServer::fail() {
  up_ = false;
  in_hand_ = 0;
  for (const sg4::ActorPtr& actor : actors_) actor->kill();  // a running kernel is cancelled with its actor
  actors_.clear();
  std::vector<InFlightRequest*> lost;
  if (frontend_) lost = frontend_->drop_all();
  for (const FrontendThreads::Task& task : frontend_done_) lost.push_back(task.request);
  frontend_done_.clear();
  for (auto& queue : queues_)
    if (queue) queue->fail(lost);
  kernel_ends_.clear();
  for (SharedDeviceSlots& gpu : shared_devices_)
    if (gpu.device) gpu.device->clear();
  // Request ids order the answers: the same run gives the same outputs.
  std::sort(lost.begin(), lost.end(),
            [](const InFlightRequest* a, const InFlightRequest* b) { return a->record.id < b->record.id; });
  for (InFlightRequest* request : lost) send_unavailable(request);
  return static_cast<std::int64_t>(lost.size());
}

void InferenceServer::exit() {
  up_ = false;
  for (auto& queue : queues_)
    if (queue) queue->stop_settling();
  exited_ = std::exchange(actors_, {});
}

std::deque<InFlightRequest*> InferenceServer::take_refused() { return std::exchange(refused_, {}); }

void InferenceServer::restart() {
  up_ = true;
  start();
}

void InferenceServer::halt() {
  for (auto& queue : queues_)
    if (queue) queue->stop_settling();
  if (frontend_) frontend_->drop_all();
  kernel_ends_.clear();
  for (SharedDeviceSlots& gpu : shared_devices_)
    if (gpu.device) gpu.device->clear();
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

// In maestro, at the date a handler thread finishes the task (see sim/simulated_time.hpp). A parsed request reaches a
// default scheduler at once, and the instant is settled at once: what the instant's actors do after it (an instance
// finishing, another request arriving) meets a second settle of the same instant, which dispatches exactly what one
// settle of everything would have (the default scheduler hands each idle instance, longest idle first, the head of its
// queue). That spares the request a hand-over to an actor. A dynamic batcher must see the instant whole (an instance
// finishing then takes its payload as it stands, before the batcher sees the instant's arrivals), and so must a
// scheduler that a request can reach without costing the frontend anything: the frontend actor admits those requests
// among the instant's other actors.
void InferenceServer::frontend_task_done(const FrontendThreads::Task& task) {
  if (task.is_request && !frontend_may_be_free_ && !queues_[task.request->record.model]->batches_dynamically())
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

void InferenceServer::admit(InFlightRequest* request) { queues_[request->record.model]->admit(request); }

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
