#include "sim/server/model_queue.hpp"

#include <algorithm>
#include <cmath>

#include "models/workload/kernel_latency.hpp"
#include "sim/platform.hpp"
#include "sim/server/simulated_shared_device.hpp"
#include "sim/simulated_time.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

ModelQueue::ModelQueue(int server, int model, const ModelSpec& spec, Recorder& recorder, Responder& responder,
                       KernelEnds& kernel_ends)
    : server_(server),
      model_(model),
      by_elements_(spec.layout != TensorLayout::Fixed),
      staging_(spec.staging),
      config_(spec.triton),
      recorder_(recorder),
      responder_(responder),
      kernel_ends_(kernel_ends) {
  settings_.instances = 0;
  settings_.wakeup = spec.batcher_wakeup;
  settings_.payloads = spec.batcher_payloads;
  settings_.shape_checked = spec.layout == TensorLayout::Padded;
}

void ModelQueue::add_instance(int gpu, sg4::Host* device, const KernelLatency& latency, const KernelSpread* spread,
                              std::uint64_t seed) {
  Instance instance;
  instance.index = static_cast<int>(instances_.size());
  instance.gpu = gpu;
  instance.device = device;
  instance.latency = &latency;
  // A variable dim's kernel counts elements, which no setting of the model bounds.
  instance.occupancy = occupancy_curve(
      latency, by_elements_ ? std::numeric_limits<double>::infinity() : std::max(1, config_.max_batch_size));
  if (spread) {
    instance.spread = spread;
    instance.spread_rng = std::make_unique<Rng>(kernel_time_seed(seed, server_, model_, instance.index));
  }
  recorder_.triton(server_, model_).instance_loaded(gpu);
  instances_.push_back(std::move(instance));
  settings_.instances = static_cast<int>(instances_.size());
}

void ModelQueue::clear() {
  state_ = {};
  state_.scheduler = std::make_unique<triton::DynamicBatcher>(config_, settings_);
  for (Instance& instance : instances_) instance.run = {};
}

void ModelQueue::start(double now, const Spawn& spawn) {
  clear();
  for (Instance& instance : instances_) {
    instance.work = sg4::Semaphore::create(0);
    state_.idle.emplace(now, instance.index);
    state_.scheduler->instance_idle(now);
    Instance* inst = &instance;
    spawn("/instance", [this, inst]() { run_instance(*inst); });
  }
  state_.scheduler->decide(now);
  batcher_wakeup_ = sg4::Semaphore::create(0);
  spawn("/batcher", [this]() { run_batcher(); });
}

void ModelQueue::fail(std::vector<InFlightRequest*>& lost) {
  const double now = sg4::Engine::get_clock();
  std::int64_t queued = 0;
  for (const auto& [id, request] : state_.waiting) {
    lost.push_back(request);
    ++queued;
  }
  recorder_.triton(server_, model_).pending -= queued;
  lost.insert(lost.end(), state_.arriving.begin(), state_.arriving.end());
  lost.insert(lost.end(), state_.rejected.begin(), state_.rejected.end());
  for (const auto& [order, held] : state_.held) lost.push_back(held.first);
  for (Instance& instance : instances_) {
    if (instance.run.batch) {  // its kernel runs, or has just ended and the actor has not yet answered
      if (instance.run.kernel) instance.run.kernel->cancel();  // one its actor had not yet waited for survived the kill
      if (instance.gpu >= 0) recorder_.kernel_finished(server_, instance.gpu, now);
    }
    lost.insert(lost.end(), instance.run.unanswered.begin(), instance.run.unanswered.end());
  }
  stop_settling();
  clear();
}

// It is enqueued at the end of the instant, with the instant's other arrivals.
void ModelQueue::admit(InFlightRequest* request) {
  RequestRecord& record = request->record;
  record.enqueued_s = sg4::Engine::get_clock();
  // With max_batch_size 0 the model has no batch dimension: every request is one unit.
  if (config_.max_batch_size > 0 && record.items > config_.max_batch_size) {
    mark_rejected(request, RejectReason::BatchTooLarge, false);  // INVALID_ARG at submit
    state_.rejected.push_back(request);                          // answered by the server, as every rejection
  } else {
    state_.arriving.push_back(request);
  }
  settle_at_end_of_instant();
}

void ModelQueue::enqueue(InFlightRequest* request, double now) {
  const RequestRecord& record = request->record;
  const int units = config_.max_batch_size > 0 ? std::max(1, record.items) : 1;
  if (!state_.scheduler->enqueue({record.id, units, now, request->priority, request->timeout_s, request->shape}, now)) {
    mark_rejected(request, RejectReason::QueueFull, false);  // UNAVAILABLE at submit
    state_.rejected.push_back(request);
    return;
  }
  recorder_.triton(server_, model_).request_arrived();
  state_.waiting.emplace(record.id, request);
}

void ModelQueue::settle_at_end_of_instant() {
  if (state_.settle_armed) return;
  state_.settle_armed = true;
  at_end_of_instant([this, life = lives_] {
    if (life != lives_) return;  // set before the server stopped
    state_.settle_armed = false;
    settle();
  });
}

// Everything that happened to the model during this instant is known: the instant's arrivals are
// enqueued in the order they were sent (request ids), the scheduler decides, and the instances it
// gave batches to are woken. Runs in maestro: what must be done by an actor (answering rejected
// requests, re-arming the batcher's timer) is left to the batcher actor.
void ModelQueue::settle() {
  // The clock may land an ulp short of a wake-up time; the scheduler must see its own time.
  const double now = std::max(sg4::Engine::get_clock(), state_.woken_at_s);
  std::sort(state_.arriving.begin(), state_.arriving.end(),
            [](const InFlightRequest* a, const InFlightRequest* b) { return a->record.id < b->record.id; });
  for (InFlightRequest* request : state_.arriving) enqueue(request, now);
  state_.arriving.clear();
  state_.scheduler->decide(now);
  for (triton::FormedBatch& batch : state_.scheduler->take_dispatched()) {
    Instance& instance = instances_[state_.idle.begin()->second];
    state_.idle.erase(state_.idle.begin());
    start_batch(instance, std::move(batch));
  }
  for (const triton::QueuedRequest& timed_out : state_.scheduler->take_timed_out()) {
    const auto it = state_.waiting.find(timed_out.id);
    InFlightRequest* request = it->second;
    state_.waiting.erase(it);
    mark_rejected(request, RejectReason::TimedOut, true);
    state_.rejected.push_back(request);
  }
  // Not == : the armed time is NaN while the batcher actor waits for this settle.
  const bool rearm = !(state_.scheduler->next_wakeup_s() == state_.armed_wakeup_s);
  if ((rearm || !state_.rejected.empty()) && !state_.batcher_signalled) {
    state_.batcher_signalled = true;
    batcher_wakeup_->release();
  }
}

// The batcher thread's own timer (a batching delay, a request deadline, a 500 ms tick), and the
// answers to requests the scheduler rejected.
void ModelQueue::run_batcher() {
  for (;;) {
    state_.batcher_signalled = false;
    while (!state_.rejected.empty()) {
      InFlightRequest* request = state_.rejected.front();
      state_.rejected.pop_front();
      responder_.respond(request, 0);
    }
    const double wakeup = state_.scheduler->next_wakeup_s();
    state_.armed_wakeup_s = wakeup;
    if (std::isinf(wakeup)) {
      batcher_wakeup_->acquire();
      continue;
    }
    const double wait = wakeup - sg4::Engine::get_clock();
    if (wait > 0 && !batcher_wakeup_->acquire_timeout(wait)) continue;  // woken to re-arm or answer
    // The timer ran out: the scheduler acts at the end of this instant, after its other events.
    state_.woken_at_s = std::max(sg4::Engine::get_clock(), wakeup);
    state_.scheduler->wake(state_.woken_at_s);
    state_.armed_wakeup_s = std::numeric_limits<double>::quiet_NaN();
    settle_at_end_of_instant();
    batcher_wakeup_->acquire();
  }
}

void ModelQueue::mark_rejected(InFlightRequest* request, RejectReason reason, bool counted_by_triton) {
  const double now = sg4::Engine::get_clock();
  request->record.status = RequestStatus::Rejected;
  request->record.reject_reason = reason;
  request->record.exec_start_s = request->record.exec_end_s = now;
  if (counted_by_triton) recorder_.triton(server_, model_).request_failed(request->record, now);
}

// With preserve_ordering a response waits until every request that left the queue before it has
// been answered (the intended Triton behaviour; statistics are unaffected).
void ModelQueue::release_in_order(std::int64_t order, InFlightRequest* request, double bytes) {
  if (!config_.dynamic_batching || !config_.dynamic_batching->preserve_ordering) {
    responder_.respond(request, bytes);
    return;
  }
  state_.held.emplace(order, std::make_pair(request, bytes));
  while (!state_.held.empty() && state_.held.begin()->first == state_.next_release) {
    const auto [held, held_bytes] = state_.held.begin()->second;
    state_.held.erase(state_.held.begin());
    responder_.respond(held, held_bytes);
    ++state_.next_release;
  }
}

// The instance takes its batch and starts the kernel on its device, in maestro (from settle): the
// kernel starts without the instance actor's own calls to SimGrid (an Exec's set_flops_amount,
// set_host and start are one actor switch each), at the same simulated time the actor would have
// started it. A kernel alone on its device ends at the date a SimGrid execution would (its flops
// over the device's speed), on a timer: the instance's actor is woken once, at that date, instead
// of at the start and again at the end, and SimGrid's sharing model is spared an activity whose
// share cannot change.
void ModelQueue::start_batch(Instance& instance, triton::FormedBatch batch) {
  const double start = sg4::Engine::get_clock();
  std::vector<InFlightRequest*>& requests = instance.run.unanswered;
  requests.clear();
  requests.reserve(batch.requests.size());
  for (const triton::BatchedRequest& r : batch.requests) {
    const auto it = state_.waiting.find(r.id);
    InFlightRequest* request = it->second;
    state_.waiting.erase(it);
    request->record.exec_start_s = start;
    requests.push_back(request);
  }

  recorder_.triton(server_, model_).execution_started(static_cast<int>(requests.size()));
  if (instance.gpu >= 0) recorder_.kernel_started(server_, instance.gpu, start);
  double kernel_units = batch.units;
  if (by_elements_) {
    kernel_units = 0;
    for (const InFlightRequest* r : requests) kernel_units += static_cast<double>(r->elements);
  }
  instance.run.batch = std::move(batch);
  const double tau = kernel_latency_s(*instance.latency, kernel_units);
  double seconds = tau;
  if (instance.spread) seconds = draw_kernel_time(seconds, *instance.spread, kernel_units, *instance.spread_rng);
  instance.run.kernel_s = seconds;
  instance.run.input_s = instance.run.output_s = 0;
  if (staging_) {
    // Compute Input and Output hold the instance like its kernel (the backend thread copies, then
    // launches, then copies back), on the same device: they are part of the execution's work.
    double input_bytes = 0, output_bytes = 0;
    for (const InFlightRequest* r : requests) {
      input_bytes += r->record.input_bytes;
      output_bytes += r->record.output_bytes;
    }
    const int count = static_cast<int>(requests.size());
    instance.run.input_s = staging_->input_s(count, input_bytes, instance.gpu >= 0);
    instance.run.output_s = staging_->output_s(count, output_bytes, instance.gpu >= 0);
    seconds += instance.run.input_s + instance.run.output_s;
  }
  const double flops = seconds * kReferenceSpeed;
  if (instance.shared_device) {
    instance.shared_device->start(instance.device_slot, flops / instance.device->get_speed(),
                                  instance.occupancy.at(kernel_units, tau));
    return;
  }
  if (instance.time_shares_device) {
    // Exec::init + set_host: SimGrid 3.32's Host::exec_async runs on the *caller's* host instead.
    instance.run.kernel = sg4::Exec::init();
    instance.run.kernel->set_flops_amount(flops)->set_host(instance.device)->start();
    instance.work->release();
    return;
  }
  kernel_ends_.add(start + flops / instance.device->get_speed(), &instance);
}

void ModelQueue::run_instance(Instance& instance) {
  for (;;) {
    instance.work->acquire();
    if (instance.run.kernel) instance.run.kernel->wait();
    const double start = instance.run.unanswered.front()->record.exec_start_s;
    const double end = sg4::Engine::get_clock();
    instance.run.kernel = nullptr;
    if (instance.gpu >= 0) recorder_.kernel_finished(server_, instance.gpu, end);
    const triton::FormedBatch batch = std::move(*instance.run.batch);
    instance.run.batch.reset();
    const std::vector<InFlightRequest*> requests = instance.run.unanswered;

    const std::int64_t batch_id = recorder_.new_batch_id();
    std::vector<const RequestRecord*> records;
    records.reserve(requests.size());
    for (InFlightRequest* r : requests) {
      r->record.exec_end_s = end;
      r->record.batch = batch_id;
      r->record.status = RequestStatus::Completed;
      records.push_back(&r->record);
    }
    // Without staging, compute_start = exec_start and compute_end = exec_end. With it, the
    // execution's time is split in the shares its phases started with (exact on a device of its
    // own; on a shared one, every phase is taken as slowed alike).
    const Instance::Run& run = instance.run;
    const double nominal_s = run.input_s + run.kernel_s + run.output_s;
    const double scale = nominal_s > 0 ? (end - start) / nominal_s : 0;
    const double compute_start = run.input_s > 0 ? start + run.input_s * scale : start;
    const double compute_end = run.output_s > 0 ? end - run.output_s * scale : end;
    recorder_.triton(server_, model_)
        .batch_executed(instance.gpu, records, batch.units, {start, compute_start, compute_end, end});
    // A request leaves `unanswered` as its answer goes out: sending yields, and a server failing in
    // that instant must still find the answers not yet sent.
    for (std::size_t i = 0; i < requests.size(); ++i) {
      instance.run.unanswered.erase(instance.run.unanswered.begin());
      release_in_order(batch.requests[i].order, requests[i], requests[i]->record.output_bytes);
    }
    recorder_.batch_executed({batch_id, server_, model_, instance.index, instance.gpu,
                              static_cast<int>(requests.size()), batch.units, start, end});
    state_.idle.emplace(end, instance.index);
    state_.scheduler->instance_idle(end);
    settle_at_end_of_instant();
  }
}

}  // namespace sonicsim::sim
