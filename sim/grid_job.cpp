#include "sim/grid_job.hpp"

#include <algorithm>

#include <simgrid/Exception.hpp>

#include "sim/platform.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

GridJob::GridJob(int index, sg4::Host* host, double start_s, std::optional<int> events, JobContext context)
    : index_(index),
      host_(host),
      start_s_(start_s),
      events_(events),
      context_(context),
      rng_(mix_seed(context.scenario.simulation.seed, static_cast<std::uint64_t>(index))),
      balance_rng_(context.balancer.draws()
                       ? std::make_shared<Rng>(balancing_seed(context.scenario.simulation.seed, index))
                       : nullptr),
      inbox_(sg4::Mailbox::by_name("job-" + std::to_string(index))) {}

void GridJob::operator()() {
  sg4::this_actor::sleep_until(start_s_);
  const Workload& w = context_.scenario.workload;
  for (int event = 0;; ++event) {
    if (events_ && event >= *events_) break;
    if (w.duration_s && sg4::Engine::get_clock() >= *w.duration_s) break;
    run_event(event);
  }
}

double GridJob::compute(double reference_seconds) {
  const double before = sg4::Engine::get_clock();
  if (reference_seconds > 0) sg4::this_actor::execute(reference_seconds * kReferenceSpeed);
  return sg4::Engine::get_clock() - before;
}

void GridJob::run_event(int event) {
  context_.recorder.event_started();
  EventRecord record;
  record.job = index_;
  record.event = event;
  record.start_s = sg4::Engine::get_clock();
  const auto& modules = context_.scenario.workload.modules;
  for (std::size_t m = 0; m < modules.size(); ++m) {
    if (const auto* cpu = std::get_if<CpuModule>(&modules[m])) {
      record.cpu_s += compute(sample(cpu->time, rng_));
      continue;
    }
    const auto& inference = std::get<InferenceModule>(modules[m]);
    if (context_.balancer.serves(inference.model)) {
      record.preprocess_s += compute(sample(inference.preprocess, rng_));
      run_requests(inference, static_cast<int>(m), event, record);
    } else {  // the whole module on the worker's CPU: its own input preparation is part of that time
      record.fallback_s += compute(sample(*inference.cpu_fallback, rng_));
    }
  }
  record.end_s = sg4::Engine::get_clock();
  context_.recorder.event_finished(record);
}

// Sends the event's requests with at most `in_flight` outstanding, and waits for every answer.
// Each request upload is a host-to-host transfer that this job waits on, so the server learns of
// the request exactly when its last byte arrives (a shared server mailbox would deliver in posting
// order instead). For each outstanding request the job keeps one receive posted on its own mailbox,
// so every response transfer starts as soon as the server sends it.
void GridJob::run_requests(const InferenceModule& module, int module_index, int event, EventRecord& record) {
  const ModelSpec& model = context_.scenario.models[module.model];
  const std::int64_t total = module.requests_per_event();
  // A receive writes the answered request into its slot when it completes. The buffers live as long
  // as the job, so sending a request allocates nothing once they have grown to `in_flight`.
  activities_.clear();
  pending_.clear();
  free_slots_.clear();
  const auto slots = static_cast<std::size_t>(std::min<std::int64_t>(module.in_flight, total));
  if (received_.size() < slots) received_.resize(slots);
  for (std::size_t slot = 0; slot < slots; ++slot) free_slots_.push_back(slot);
  std::int64_t sent = 0, answered = 0, outstanding = 0;
  const double first_sent = sg4::Engine::get_clock();

  auto send_next = [&]() {
    InFlightRequest* r = context_.recorder.new_request();
    RequestRecord& rec = r->record;
    rec.job = index_;
    rec.event = event;
    rec.module = module_index;
    rec.model = module.model;
    rec.items = module.items_in_request(sent);
    rec.input_bytes = rec.items * model.input_bytes_per_item;
    rec.output_bytes = rec.items * model.output_bytes_per_item;
    rec.server = context_.balancer.pick(module.model, index_, balance_rng_.get());
    rec.sent_s = sg4::Engine::get_clock();
    r->client = host_;
    r->reply_to = inbox_;
    r->priority = module.priority;
    r->timeout_s = module.timeout_s;
    InferenceServer& server = *context_.servers[rec.server];
    context_.recorder.request_sent(*r);
    activities_.push_back(sg4::Comm::sendto_async(host_, server.host(), static_cast<std::uint64_t>(rec.input_bytes)));
    pending_.push_back({true, r, 0});
    const std::size_t slot = free_slots_.back();
    free_slots_.pop_back();
    received_[slot] = nullptr;
    activities_.push_back(inbox_->get_async<InFlightRequest>(&received_[slot]));
    pending_.push_back({false, nullptr, slot});
    ++sent;
    ++outstanding;
  };

  while (answered < total) {
    while (outstanding < module.in_flight && sent < total) send_next();
    std::size_t done = 0;
    try {
      done = static_cast<std::size_t>(sg4::Activity::wait_any(activities_));
    } catch (const simgrid::ForcefulKillException&) {
      // A duration run ends by killing the jobs mid-request. SimGrid reports every started comm
      // freed before completion, so these stay referenced until the process ends.
      for (const auto& activity : activities_) intrusive_ptr_add_ref(activity.get());
      throw;
    }
    const Pending finished = pending_[done];
    activities_.erase(activities_.begin() + static_cast<std::ptrdiff_t>(done));
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(done));

    if (finished.upload) {
      context_.servers[finished.request->record.server]->receive(finished.request);
      continue;
    }
    InFlightRequest* r = received_[finished.slot];
    free_slots_.push_back(finished.slot);
    RequestRecord& rec = r->record;
    rec.received_s = sg4::Engine::get_clock();
    context_.balancer.answered(rec.server);
    record.network_s += (rec.arrived_s - rec.sent_s) + (rec.received_s - rec.responded_s);
    record.frontend_s += (rec.enqueued_s - rec.arrived_s) + (rec.responded_s - rec.exec_end_s);
    record.queue_s += rec.exec_start_s - rec.enqueued_s;
    record.gpu_s += rec.exec_end_s - rec.exec_start_s;
    ++record.requests;
    if (rec.status == RequestStatus::Rejected) ++record.rejected_requests;
    context_.recorder.request_answered(r);
    ++answered;
    --outstanding;
  }
  record.inference_s += sg4::Engine::get_clock() - first_sent;
}

}  // namespace sonicsim::sim
