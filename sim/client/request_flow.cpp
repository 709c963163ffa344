#include "sim/client/request_flow.hpp"

#include <algorithm>
#include <utility>

#include <simgrid/Exception.hpp>

#include "sim/platform.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

RequestFlow::RequestFlow(const JobContext& context, int job, sg4::Host* host, sg4::Mailbox* inbox,
                         std::shared_ptr<Rng> balance_rng)
    : context_(context), job_(job), host_(host), inbox_(inbox), balance_rng_(std::move(balance_rng)) {}

// Each request upload is a host-to-host transfer that this job waits on, so the server learns of
// the request exactly when its last byte arrives (a shared server mailbox would deliver in posting
// order instead).
bool RequestFlow::run_module(const InferenceModule& module, int module_index, int event, int items,
                             const PartElements& part_elements, EventRecord& record) {
  current_ = Current{&module, module_index, event, items, &part_elements, &record};
  const std::int64_t total = module.requests_for(items);
  std::int64_t next_part = 0;
  for (;;) {
    while (!current_.giving_up && static_cast<std::int64_t>(live_.size()) < module.in_flight && next_part < total)
      send(next_part++, 1, false, context_.proxy ? -1 : context_.balancer.pick(module.model, job_, balance_rng_.get()));
    if (live_.empty() && (current_.giving_up || current_.resolved == total)) break;
    step();
  }
  return !current_.giving_up;
}

// A new attempt at the event's request `part`. Without a proxy it goes to `server` (-1: no ready
// server, so it fails at once); with one, the proxy picks the server.
void RequestFlow::send(std::int64_t part, int tries, bool failed_over, int server) {
  const InferenceModule& module = *current_.module;
  const ModelSpec& model = context_.scenario.models[module.model];
  InFlightRequest* r = context_.recorder.request_pool().new_request();
  RequestRecord& rec = r->record;
  rec.job = job_;
  rec.event = current_.event;
  rec.module = current_.module_index;
  rec.model = module.model;
  rec.items = module.items_in_request(part, current_.items);
  rec.input_bytes = rec.items * model.input_bytes_per_item;
  rec.output_bytes = rec.items * model.output_bytes_per_item;
  if (module.elements_per_item) {
    const auto [elements, shape] = (*current_.part_elements)[static_cast<std::size_t>(part)];
    r->elements = elements;
    r->shape = shape;
    rec.input_bytes += static_cast<double>(elements) * model.input_bytes_per_element;
    rec.output_bytes += static_cast<double>(elements) * model.output_bytes_per_element;
  }
  rec.server = server;
  rec.attempt = tries + (failed_over ? module.allowed_tries : 0);
  rec.sent_s = sg4::Engine::get_clock();
  r->client = host_;
  r->client_inbox = inbox_;
  r->reply_to = context_.proxy ? context_.proxy->responses() : inbox_;
  r->priority = module.priority;
  r->timeout_s = module.timeout_s;
  r->part = part;
  r->tries = tries;
  r->failed_over = failed_over;
  r->live_slot = live_.size();
  live_.push_back(r);
  if (module.client_timeout_s) timers_.push_back({rec.sent_s + *module.client_timeout_s, r, TimerKind::Deadline});
  if (context_.proxy) {
    rec.server = -1;  // chosen by the proxy
    context_.recorder.request_sent(*r);
    post(Stage::ToProxy, r,
         sg4::Comm::sendto_async(host_, context_.proxy->host(), static_cast<std::uint64_t>(rec.input_bytes)));
    return;
  }
  if (server < 0) {  // no ready server to send it to
    context_.recorder.request_sent(*r);
    fail_locally(r, 0);
    return;
  }
  context_.recorder.request_sent(*r);
  to_server(r, host_);
}

// The upload of a request to its server, and a receive posted for its answer: a receive for each
// request a server will hold, so that every answer transfer starts as soon as the server sends it.
void RequestFlow::to_server(InFlightRequest* r, sg4::Host* from) {
  if (context_.uploads && from == host_) {  // the server receives it from the fast path, in maestro
    r->upload_watcher = this;
    r->watch_slot = fast_uploads_.size();
    fast_uploads_.push_back(r);
    context_.uploads->start(r, from);
  } else {
    post(Stage::ToServer, r,
         sg4::Comm::sendto_async(from, context_.servers[r->record.server]->host(),
                                 static_cast<std::uint64_t>(r->record.input_bytes)));
  }
  std::size_t slot;
  if (free_slots_.empty()) {
    slot = received_.size();
    received_.push_back(nullptr);
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  received_[slot] = nullptr;
  post(Stage::Answer, nullptr, inbox_->get_async<InFlightRequest>(&received_[slot]), slot);
}

void RequestFlow::post(Stage stage, InFlightRequest* request, sg4::ActivityPtr activity, std::size_t slot) {
  activities_.push_back(std::move(activity));
  pending_.push_back({stage, request, slot});
}

// Waits for the next activity to end or timer to fire, and acts on it.
void RequestFlow::step() {
  auto next_timer =
      std::min_element(timers_.begin(), timers_.end(), [](const Timer& a, const Timer& b) { return a.at < b.at; });
  ssize_t done = -1;
  try {
    if (next_timer == timers_.end()) {
      done = sg4::Activity::wait_any(activities_);
    } else {
      const double wait = next_timer->at - sg4::Engine::get_clock();
      if (activities_.empty())
        sg4::this_actor::sleep_for(std::max(0.0, wait));
      else if (wait > 0)
        done = sg4::Activity::wait_any_for(activities_, wait);
    }
  } catch (const simgrid::ForcefulKillException&) {
    // A duration run ends by killing the jobs mid-request. SimGrid reports every started comm
    // freed before completion, so these stay referenced until the process ends.
    for (const auto& activity : activities_) intrusive_ptr_add_ref(activity.get());
    throw;
  }
  if (done < 0) {
    const Timer timer = *next_timer;
    timers_.erase(next_timer);
    fire(timer);
    return;
  }
  const Pending finished = pending_[static_cast<std::size_t>(done)];
  activities_.erase(activities_.begin() + done);
  pending_.erase(pending_.begin() + done);
  completed(finished);
}

void RequestFlow::completed(const Pending& pending) {
  InFlightRequest* r = pending.request;
  switch (pending.stage) {
    case Stage::ToProxy:
      if (r->abandoned) return drop(r, false);
      if (context_.proxy->spec().per_request_s > 0) {
        // Exec::init + set_host: SimGrid 3.32's Host::exec_async runs on the *caller's* host instead.
        post(Stage::AtProxy, r,
             sg4::Exec::init()
                 ->set_flops_amount(context_.proxy->spec().per_request_s * kReferenceSpeed)
                 ->set_host(context_.proxy->host())
                 ->start());
        return;
      }
      return at_proxy(r);
    case Stage::AtProxy:
      if (r->abandoned) return drop(r, false);
      return at_proxy(r);
    case Stage::ToServer:  // delivered even if abandoned meanwhile: its answer will be dropped
      context_.servers[r->record.server]->receive(r);
      return;
    case Stage::Answer: {
      InFlightRequest* answer = received_[pending.slot];
      free_slots_.push_back(pending.slot);
      if (!context_.proxy) context_.balancer.answered(answer->record.server);  // the proxy counts its own
      if (answer->abandoned) return drop(answer, false);
      answered(answer);
      return;
    }
  }
}

// The proxy has the request and has spent its CPU time on it: it picks a server and forwards it.
void RequestFlow::at_proxy(InFlightRequest* r) {
  context_.proxy->resolve();
  const int server = context_.balancer.pick(r->record.model, job_, balance_rng_.get());
  r->record.server = server;
  if (server < 0) return fail_locally(r, context_.proxy->latency_to(host_));  // no healthy upstream: 503
  if (!context_.servers[server]->up()) {
    timers_.push_back({sg4::Engine::get_clock() + context_.proxy->spec().connect_timeout_s, r, TimerKind::Connect});
    return;
  }
  context_.recorder.request_forwarded(*r);
  to_server(r, context_.proxy->host());
}

// The request fails where it is (no server to send it to, or the proxy could not connect); its
// client learns of it `delay_s` later. Envoy answers 503, which gRPC reads as UNAVAILABLE.
void RequestFlow::fail_locally(InFlightRequest* r, double delay_s) {
  r->record.status = RequestStatus::Failed;
  r->record.failure = FailureCause::Unavailable;
  r->record.responded_s = sg4::Engine::get_clock();
  timers_.push_back({sg4::Engine::get_clock() + delay_s, r, TimerKind::LocalError});
}

void RequestFlow::fire(const Timer& timer) {
  InFlightRequest* r = timer.request;
  switch (timer.kind) {
    case TimerKind::Deadline:  // no answer in time: DEADLINE_EXCEEDED; the request goes on without its client
      forget(r);
      attempt_failed(r);
      context_.recorder.request_abandoned(r, FailureCause::DeadlineExceeded);
      return;
    case TimerKind::Connect:  // the proxy gives up on the dead server
      context_.balancer.answered(r->record.server);
      if (r->abandoned) return drop(r, false);
      return fail_locally(r, context_.proxy->latency_to(host_));
    case TimerKind::LocalError:
      if (r->abandoned) return drop(r, false);
      return answered(r);
  }
}

void RequestFlow::answered(InFlightRequest* r) {
  forget(r);
  EventRecord& record = *current_.record;
  RequestRecord& rec = r->record;
  rec.received_s = sg4::Engine::get_clock();
  ++record.requests;
  if (rec.status == RequestStatus::Failed) {
    attempt_failed(r);
    context_.recorder.request_answered(r);
    return;
  }
  record.network_s += (rec.arrived_s - rec.sent_s) + (rec.received_s - rec.responded_s);
  record.frontend_s += (rec.enqueued_s - rec.arrived_s) + (rec.responded_s - rec.exec_end_s);
  record.queue_s += rec.exec_start_s - rec.enqueued_s;
  record.gpu_s += rec.exec_end_s - rec.exec_start_s;
  if (rec.status == RequestStatus::Rejected) ++record.rejected_requests;
  context_.recorder.request_answered(r);
  ++current_.resolved;
}

// An attempt failed (its record is not yet written): try again on the same server while tries
// remain (SonicClientBase::finish: evaluate() again at once), then fail over once if asked, else the
// module gives up on the server.
void RequestFlow::attempt_failed(InFlightRequest* r) {
  const InferenceModule& module = *current_.module;
  const int server = r->record.server;
  if (!current_.giving_up && r->tries < module.allowed_tries) {
    r->record.retried = true;
    context_.recorder.request_retried();
    if (!context_.proxy && server >= 0) context_.balancer.sent_to(server);
    send(r->part, r->tries + 1, r->failed_over, context_.proxy ? -1 : server);
    return;
  }
  if (!current_.giving_up && module.on_failure == OnFailure::Failover && !r->failed_over) {
    const int other =
        context_.proxy ? -1 : context_.balancer.pick_other(module.model, job_, balance_rng_.get(), server);
    if (context_.proxy || other >= 0) {
      r->record.retried = true;
      context_.recorder.request_failed_over();
      send(r->part, 1, true, other);
      return;
    }
  }
  ++current_.resolved;
  if (!current_.giving_up) give_up();
}

// The module gives up on the servers for this event. Falling back, it waits for its other requests;
// otherwise the job ends, and what it still waits for is cancelled.
void RequestFlow::give_up() {
  current_.giving_up = true;
  if (current_.module->on_failure == OnFailure::Fallback) return;
  cancel_live();
}

// The requests the job still waits for are abandoned as CANCELLED, in the order they were sent.
void RequestFlow::cancel_live() {
  std::vector<InFlightRequest*> cancelled = live_;
  std::sort(cancelled.begin(), cancelled.end(),
            [](const InFlightRequest* a, const InFlightRequest* b) { return a->record.id < b->record.id; });
  for (InFlightRequest* r : cancelled) {
    forget(r);
    context_.recorder.request_abandoned(r, FailureCause::Cancelled);
  }
}

// The request is no longer live (answered or abandoned): it leaves live_ and its deadline goes.
void RequestFlow::forget(InFlightRequest* r) {
  InFlightRequest* last = live_.back();
  live_[r->live_slot] = last;
  last->live_slot = r->live_slot;
  live_.pop_back();
  if (timers_.empty()) return;
  const auto deadline = std::find_if(timers_.begin(), timers_.end(),
                                     [r](const Timer& t) { return t.request == r && t.kind == TimerKind::Deadline; });
  if (deadline != timers_.end()) timers_.erase(deadline);
}

// An abandoned request's stage ended on the job's side: it goes no further. A request on its way
// to its server was counted active there by the balancer.
void RequestFlow::drop(InFlightRequest* r, bool on_way_to_server) {
  if (on_way_to_server) context_.balancer.answered(r->record.server);
  context_.recorder.request_pool().recycle(r);
}

// The request has reached its server (delivered even if abandoned meanwhile, as a SimGrid upload is).
void RequestFlow::upload_ended(InFlightRequest* r) {
  InFlightRequest* last = fast_uploads_.back();
  fast_uploads_[r->watch_slot] = last;
  last->watch_slot = r->watch_slot;
  fast_uploads_.pop_back();
  r->upload_watcher = nullptr;
}

// What is still under way belongs to abandoned requests: the transfers and receives stop, and the
// answers still to come are never read.
void RequestFlow::end_of_job() {
  for (InFlightRequest* r : fast_uploads_) {
    context_.uploads->cancel(r);
    r->upload_watcher = nullptr;
    drop(r, true);
  }
  fast_uploads_.clear();
  for (std::size_t i = 0; i < activities_.size(); ++i) {
    activities_[i]->cancel();
    if (pending_[i].request) drop(pending_[i].request, pending_[i].stage == Stage::ToServer);
  }
  for (const Timer& timer : timers_)
    if (timer.kind != TimerKind::Deadline) drop(timer.request, timer.kind == TimerKind::Connect);
  activities_.clear();
  pending_.clear();
  timers_.clear();
}

}  // namespace sonicsim::sim
