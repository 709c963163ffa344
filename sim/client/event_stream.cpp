#include "sim/client/event_stream.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "sim/platform.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

std::string mailbox_name(int job, int stream, int run) {
  std::string name = "job-" + std::to_string(job);
  if (run > 0) name.append(".").append(std::to_string(run));  // answers to an earlier run never reach this one
  if (stream > 0) name.append("/").append(std::to_string(stream));
  return name;
}

// Stream 0 draws from the job's own streams, so that a job of one stream draws as a single-threaded
// job does; every other stream has streams of its own, whatever the order its events run in.
std::uint64_t stream_seed(std::uint64_t job_seed, int stream) {
  return stream == 0 ? job_seed : mix_seed(job_seed, static_cast<std::uint64_t>(stream));
}

}  // namespace

EventStream::EventStream(const JobContext& context, int job, int stream, int run, sg4::Host* host, JobThreads* threads)
    : context_(context),
      job_(job),
      stream_(stream),
      threads_(threads),
      host_(host),
      name_(mailbox_name(job, stream, run)),
      rng_(stream_seed(mix_seed(context.scenario.simulation.seed, static_cast<std::uint64_t>(job)), stream)),
      balance_rng_(context.balancer.draws() ? std::make_shared<Rng>(stream_seed(
                                                  balancing_seed(context.scenario.simulation.seed, job), stream))
                                            : nullptr),
      requests_(context, job, host, sg4::Mailbox::by_name(name_), balance_rng_) {
  const Workload& w = context.scenario.workload;
  if (!w.graph) return;
  for (std::size_t m = 0; m < w.modules.size(); ++m) {
    const bool inference = std::holds_alternative<InferenceModule>(w.modules[m]);
    flow_of_.push_back(inference ? static_cast<int>(module_flows_.size()) : -1);
    if (inference)
      module_flows_.emplace_back(context, job, host, sg4::Mailbox::by_name(name_ + "#" + std::to_string(m)),
                                 balance_rng_);
  }
  module_parts_.resize(module_flows_.size());
}

double EventStream::compute(double reference_seconds) {
  const double before = sg4::Engine::get_clock();
  if (reference_seconds > 0) {
    if (threads_) threads_->computing(true);
    // this_actor::execute(flops) is exec_init(flops)->set_priority(1.0)->vetoable_start()->wait()
    // (SimGrid 3.32, src/s4u/s4u_Actor.cpp): set_priority(1.0) sets the sharing penalty every exec
    // starts with (1 / 1.0, ExecImpl's default), at the cost of one more simcall per CPU step.
    sg4::this_actor::exec_async(reference_seconds * kReferenceSpeed)->wait();
    if (threads_) threads_->computing(false);
  }
  return sg4::Engine::get_clock() - before;
}

EventRecord EventStream::begin_event(int event) {
  context_.recorder.event_started();
  EventRecord record;
  record.job = job_;
  record.event = event;
  record.stream = stream_;
  record.start_s = sg4::Engine::get_clock();
  return record;
}

bool EventStream::run_event(int event, std::vector<bool>& on_cpu) {
  if (context_.scenario.workload.graph) return run_graph_event(event, on_cpu);
  EventRecord record = begin_event(event);
  for (std::size_t m = 0; m < context_.scenario.workload.modules.size(); ++m) {
    if (run_module(m, event, on_cpu, record, requests_, part_elements_) == ModuleOutcome::JobFailed) {
      context_.recorder.event_failed();
      return false;
    }
  }
  record.end_s = sg4::Engine::get_clock();
  context_.recorder.event_finished(record);
  return true;
}

EventStream::ModuleOutcome EventStream::run_module(std::size_t m, int event, std::vector<bool>& on_cpu,
                                                   EventRecord& record, RequestFlow& flow,
                                                   RequestFlow::PartElements& part_elements) {
  const Module& module = context_.scenario.workload.modules[m];
  if (const auto* cpu = std::get_if<CpuModule>(&module)) {
    record.cpu_s += compute(sample(cpu->time, rng_));
    return ModuleOutcome::Done;
  }
  const auto& inference = std::get<InferenceModule>(module);
  // Drawn wherever the module runs, so that the job's later draws do not depend on it.
  const int items = sample(inference.items_per_event, rng_);
  if (inference.elements_per_item) draw_part_elements(inference, items, part_elements);
  if (!context_.balancer.serves(inference.model) || on_cpu[m]) {
    // The whole module on the worker's CPU: its own input preparation is part of that time.
    record.fallback_s += compute(sample(*inference.cpu_fallback, rng_));
    return ModuleOutcome::Done;
  }
  record.preprocess_s += compute(sample(inference.preprocess, rng_));
  // ExternalWork: acquire() has dispatched the requests and returned; produce() waits for a free
  // thread once the answers are back (docs/reference/cmssw-sonic.md §2, steps 3 to 5).
  const bool frees_thread = threads_ && inference.external_work;
  if (frees_thread) {
    if (graph_) graph_->leaving_thread();
    threads_->release();
  }
  const ModuleOutcome outcome = run_requests(inference, static_cast<int>(m), event, items, record, flow, part_elements);
  if (outcome == ModuleOutcome::JobFailed) return outcome;
  if (frees_thread) {
    record.thread_wait_s += threads_->acquire();
    if (graph_) graph_->back_on_thread();
  }
  if (outcome == ModuleOutcome::FellBack) {
    record.fallback_s += compute(sample(*inference.cpu_fallback, rng_));
    context_.recorder.event_fell_back();
    if (inference.fallback_scope == FallbackScope::Job) on_cpu[m] = true;
  }
  return outcome;
}

// The event's modules as they become ready (EventGraph), on the job's threads (a graph makes the
// workload threaded: Workload::threaded()): the stream holds the one it read the event on at the
// start and at the end of the event.
bool EventStream::run_graph_event(int event, std::vector<bool>& on_cpu) {
  EventRecord record = begin_event(event);
  const Workload& w = context_.scenario.workload;
  if (!graph_) graph_ = std::make_shared<EventGraph>(*w.graph, *threads_, w.threads, host_, name_);
  const bool done = graph_->run(record, [&](int m, EventRecord& own) {
    const auto module = static_cast<std::size_t>(m);
    const int flow = flow_of_[module];
    RequestFlow& requests = flow < 0 ? requests_ : module_flows_[static_cast<std::size_t>(flow)];
    RequestFlow::PartElements& parts = flow < 0 ? part_elements_ : module_parts_[static_cast<std::size_t>(flow)];
    return run_module(module, event, on_cpu, own, requests, parts) != ModuleOutcome::JobFailed;
  });
  if (!done) {
    for (RequestFlow& flow : module_flows_) flow.cancel_live();
    context_.recorder.event_failed();
    return false;
  }
  record.end_s = sg4::Engine::get_clock();
  context_.recorder.event_finished(record);
  return true;
}

void EventStream::cancel_requests() {
  if (graph_) graph_->stop();
  requests_.cancel_live();
  for (RequestFlow& flow : module_flows_) flow.cancel_live();
}

void EventStream::end_of_job() {
  requests_.end_of_job();
  for (RequestFlow& flow : module_flows_) flow.end_of_job();
  if (graph_) graph_->close();
}

// Each item of the event draws its elements. A ragged request carries the sum; a padded one pads
// every item to the largest of the request, whose element count is then its shape.
void EventStream::draw_part_elements(const InferenceModule& module, int items, RequestFlow::PartElements& parts) {
  const bool padded = context_.scenario.models[module.model].layout == TensorLayout::Padded;
  parts.clear();
  for (std::int64_t k = 0; k < module.requests_for(items); ++k) {
    const int n = module.items_in_request(k, items);
    std::int64_t sum = 0, most = 0;
    for (int i = 0; i < n; ++i) {
      const std::int64_t e = sample(*module.elements_per_item, rng_);
      sum += e;
      most = std::max(most, e);
    }
    parts.emplace_back(padded ? most * n : sum, padded ? most : 0);
  }
}

EventStream::ModuleOutcome EventStream::run_requests(const InferenceModule& module, int module_index, int event,
                                                     int items, EventRecord& record, RequestFlow& flow,
                                                     const RequestFlow::PartElements& part_elements) {
  const double first_sent = sg4::Engine::get_clock();
  const bool served = flow.run_module(module, module_index, event, items, part_elements, record);
  record.inference_s += sg4::Engine::get_clock() - first_sent;
  if (served) return ModuleOutcome::Done;
  return module.on_failure == OnFailure::Fallback ? ModuleOutcome::FellBack : ModuleOutcome::JobFailed;
}

}  // namespace sonicsim::sim
