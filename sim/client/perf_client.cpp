#include "sim/client/perf_client.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

#include "models/io/text_format.hpp"
#include "models/scenario/scenario_size.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

PerfClients::PerfClients(const Scenario& scenario, sg4::Host* host,
                         std::vector<std::unique_ptr<InferenceServer>>& servers, RequestBalancer& balancer,
                         Recorder& recorder, double level, PerfMeasurement& measurement, UploadFastPath* uploads)
    : scenario_(scenario),
      load_(*scenario.perf_analyzer),
      host_(host),
      servers_(servers),
      balancer_(balancer),
      balance_rng_(balancing_seed(scenario.simulation.seed, 0)),
      recorder_(recorder),
      level_(level),
      measurement_(measurement),
      uploads_(uploads),
      rng_(scenario.simulation.seed),
      draws_(!std::holds_alternative<ConstantDist>(load_.client_send) ||
             !std::holds_alternative<ConstantDist>(load_.client_recv)),
      in_flight_cap_(perf_requests_in_flight_cap(scenario)) {}

void PerfClients::start() {
  if (load_.mode == PerfLoadMode::Concurrency) {
    // ConcurrencyManager::ChangeConcurrencyLevel starts min(concurrency, --max-threads) threads and
    // gives each the floor of concurrency / threads, the first (concurrency mod threads) one more:
    // the counts client k mod threads gives.
    const int clients = static_cast<int>(level_);
    if (load_.client_threads > 0)
      for (int t = 0; t < std::min(clients, load_.client_threads); ++t)
        threads_.push_back(std::make_unique<ClientThread>());
    for (int c = 0; c < clients; ++c)
      sg4::Actor::create("perf-client-" + std::to_string(c), host_, [this, c]() { closed_loop(c); })->daemonize();
  } else {
    sg4::Actor::create("perf-generator", host_, [this]() { generate_requests(); })->daemonize();
  }
}

namespace {

// A draw, or the constant without a stream.
double draw(const Distribution& time, Rng* rng) {
  if (const auto* constant = std::get_if<ConstantDist>(&time)) return constant->value;
  return sample(time, *rng);
}

}  // namespace

// On the heap: a stream is 2.5 kB, and actors' stacks may be as small as 16 KiB.
std::unique_ptr<Rng> PerfClients::client_rng(std::int64_t client) const {
  if (!draws_) return nullptr;
  return std::make_unique<Rng>(perf_client_seed(scenario_.simulation.seed, client));
}

void PerfClients::closed_loop(int client) {
  const std::unique_ptr<Rng> rng = client_rng(client);
  ClientThread* thread = threads_.empty() ? nullptr : threads_[client % threads_.size()].get();
  for (;;) one_request(client, rng.get(), thread);
}

// perf_analyzer schedules sends at k / rate (constant) or with exponential gaps (Poisson); each
// request runs on its own, so a slow response does not delay the next send. Each goes to an idle
// slot (a new one if none is idle), so the run holds what is in flight, not the level's total.
void PerfClients::generate_requests() {
  double at = 0;
  for (int k = 0;; ++k) {
    at = load_.distribution == RequestDistribution::Constant ? k / level_
                                                             : at - std::log(rng_.uniform_open_zero()) / level_;
    sg4::this_actor::sleep_until(at);
    if (in_flight_ >= in_flight_cap_) {
      limit_reached_ = printf_string(
          "at %g requests/s the server does not keep up: %lld requests were in flight at "
          "t = %.6f s, the most sonicsim holds at once (lower the rate)",
          level_, static_cast<long long>(in_flight_), at);
      sg4::Actor::kill_all();
      sg4::this_actor::exit();
    }
    ++in_flight_;
    hand_to_slot(k);
  }
}

// A slot handed a request runs it in the same instant, as an actor created for it would.
void PerfClients::hand_to_slot(int request) {
  if (idle_slots_.empty()) {
    Slot* slot = slots_.emplace_back(std::make_unique<Slot>()).get();
    slot->request = request;
    sg4::Actor::create("perf-request", host_, [this, slot]() { run_slot(*slot); })->daemonize();
    return;
  }
  Slot* slot = idle_slots_.back();
  idle_slots_.pop_back();
  slot->request = request;
  slot->handed->release();
}

void PerfClients::run_slot(Slot& slot) {
  for (;;) {
    one_request(slot.request, client_rng(slot.request).get());
    --in_flight_;
    idle_slots_.push_back(&slot);
    slot.handed->acquire();
  }
}

sg4::Mailbox* PerfClients::take_mailbox() {
  if (!free_mailboxes_.empty()) {
    sg4::Mailbox* m = free_mailboxes_.back();
    free_mailboxes_.pop_back();
    return m;
  }
  return sg4::Mailbox::by_name("perf-response-" + std::to_string(next_mailbox_++));
}

// On a shared thread (perf_analyzer --async, triton-inference-server/client@b359279d, 2021-12-16,
// src/c++/perf_analyzer/concurrency_manager.cc, ConcurrencyManager::Infer): a request's start is
// stamped just before the worker thread calls AsyncInfer, so waiting for the thread is not in its
// latency; its end is stamped in the completion callback, which the client library's one completion
// thread runs after parsing the response (src/c++/library/http_client.cc,
// InferenceServerHttpClient::AsyncTransfer), so waiting for that thread is. The callback's
// bookkeeping after the stamp (ValidateOutputs, ClientInferStat) is client_gap.
void PerfClients::one_request(int client, Rng* rng, ClientThread* thread) {
  const ModelSpec& model = scenario_.models[load_.model];
  if (thread) thread->sender->lock();
  const double start = sg4::Engine::get_clock();
  if (const double send = draw(load_.client_send, rng); send > 0) sg4::this_actor::sleep_for(send);
  const double sent = sg4::Engine::get_clock();
  if (thread) thread->sender->unlock();

  InFlightRequest* r = recorder_.request_pool().new_request();
  RequestRecord& rec = r->record;
  rec.job = client;
  rec.event = next_request_++;
  rec.model = load_.model;
  rec.items = load_.batch_size;
  rec.input_bytes = rec.items * model.input_bytes_per_item;
  rec.output_bytes = rec.items * model.output_bytes_per_item;
  rec.server = balancer_.pick(load_.model, client, &balance_rng_);
  rec.sent_s = sent;
  r->client = host_;
  r->reply_to = take_mailbox();
  sg4::Mailbox* inbox = r->reply_to;
  InferenceServer& server = *servers_[rec.server];
  recorder_.request_sent(*r);
  if (uploads_) {  // the server receives it from the fast path, in maestro
    uploads_->start(r, host_);
  } else {
    sg4::Comm::sendto(host_, server.host(), static_cast<std::uint64_t>(rec.input_bytes));
    server.receive(r);
  }
  InFlightRequest* answer = inbox->get<InFlightRequest>();
  free_mailboxes_.push_back(inbox);
  answer->record.received_s = sg4::Engine::get_clock();
  balancer_.answered(answer->record.server);
  const bool failed = answer->record.status != RequestStatus::Completed;
  recorder_.request_answered(answer);

  if (thread) thread->completer->lock();
  const double received = sg4::Engine::get_clock();
  if (const double recv = draw(load_.client_recv, rng); recv > 0) sg4::this_actor::sleep_for(recv);
  const double end = sg4::Engine::get_clock();
  if (load_.client_gap_s > 0) sg4::this_actor::sleep_for(load_.client_gap_s);
  if (thread) thread->completer->unlock();
  const std::int64_t start_ns = triton_timestamp_ns(start), end_ns = triton_timestamp_ns(end);
  const std::int64_t send_ns = triton_timestamp_ns(sent) - start_ns, recv_ns = end_ns - triton_timestamp_ns(received);
  if (count_windows_) {
    if (end >= load_.warmup_s) count_windows_->collect(start_ns, end_ns, send_ns, recv_ns, failed);
    return;
  }
  if (end < load_.warmup_s || end >= load_.end_s()) return;  // only requests ending inside the windows
  if (failed) {
    ++measurement_.failed;
    return;
  }
  measurement_.count(end_ns - start_ns, send_ns, recv_ns);
}

}  // namespace sonicsim::sim
