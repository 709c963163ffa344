#include "sim/client/grid_job.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "sim/platform.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

std::string mailbox_name(int job, int run) {
  std::string name = "job-" + std::to_string(job);
  if (run > 0) name.append(".").append(std::to_string(run));  // answers to an earlier run never reach this one
  return name;
}

}  // namespace

GridJob::GridJob(int index, sg4::Host* host, double start_s, std::optional<int> events, JobContext context, int run)
    : index_(index),
      start_s_(start_s),
      events_(events),
      context_(context),
      rng_(mix_seed(context.scenario.simulation.seed, static_cast<std::uint64_t>(index))),
      requests_(context, index, host, sg4::Mailbox::by_name(mailbox_name(index, run)),
                context.balancer.draws()
                    ? std::make_shared<Rng>(balancing_seed(context.scenario.simulation.seed, index))
                    : nullptr) {}

void GridJob::operator()() {
  sg4::this_actor::sleep_until(start_s_);
  const Workload& w = context_.scenario.workload;
  // Refused by the saturation gate, the job runs every inference module on its CPU (CMSSW's
  // TritonService skips the server and starts its local fallback for the whole job).
  // The job's connection to the proxy comes first; refused, there is no RepositoryIndex call to gate.
  gated_ = (context_.proxy && !context_.proxy->accept_connection()) || (context_.gate && !context_.gate->admit());
  on_cpu_.assign(w.modules.size(), gated_);
  context_.recorder.job_began(index_);
  int done = 0;
  for (int event = 0;; ++event) {
    if (events_ && event >= *events_) break;
    if (w.duration_s && sg4::Engine::get_clock() >= *w.duration_s) break;
    if (!run_event(event)) {
      failed_ = true;
      context_.recorder.job_failed(start_s_, sg4::Engine::get_clock(), done);
      break;
    }
    ++done;
    if (gated_) context_.recorder.event_gated();
  }
  context_.recorder.job_finished(index_, failed_);
  requests_.end_of_job();
}

double GridJob::compute(double reference_seconds) {
  const double before = sg4::Engine::get_clock();
  if (reference_seconds > 0) sg4::this_actor::execute(reference_seconds * kReferenceSpeed);
  return sg4::Engine::get_clock() - before;
}

// Returns false when the job failed during the event.
bool GridJob::run_event(int event) {
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
    // Drawn wherever the module runs, so that the job's later draws do not depend on it.
    const int items = sample(inference.items_per_event, rng_);
    if (inference.elements_per_item) draw_part_elements(inference, items);
    if (context_.balancer.serves(inference.model) && !on_cpu_[m]) {
      record.preprocess_s += compute(sample(inference.preprocess, rng_));
      const ModuleOutcome outcome = run_requests(inference, static_cast<int>(m), event, items, record);
      if (outcome == ModuleOutcome::JobFailed) {
        context_.recorder.event_failed();
        return false;
      }
      if (outcome == ModuleOutcome::FellBack) {
        record.fallback_s += compute(sample(*inference.cpu_fallback, rng_));
        context_.recorder.event_fell_back();
        if (inference.fallback_scope == FallbackScope::Job) on_cpu_[m] = true;
      }
    } else {  // the whole module on the worker's CPU: its own input preparation is part of that time
      record.fallback_s += compute(sample(*inference.cpu_fallback, rng_));
    }
  }
  record.end_s = sg4::Engine::get_clock();
  context_.recorder.event_finished(record);
  return true;
}

// Each item of the event draws its elements. A ragged request carries the sum; a padded one pads
// every item to the largest of the request, whose element count is then its shape.
void GridJob::draw_part_elements(const InferenceModule& module, int items) {
  const bool padded = context_.scenario.models[module.model].layout == TensorLayout::Padded;
  part_elements_.clear();
  for (std::int64_t k = 0; k < module.requests_for(items); ++k) {
    const int n = module.items_in_request(k, items);
    std::int64_t sum = 0, most = 0;
    for (int i = 0; i < n; ++i) {
      const std::int64_t e = sample(*module.elements_per_item, rng_);
      sum += e;
      most = std::max(most, e);
    }
    part_elements_.emplace_back(padded ? most * n : sum, padded ? most : 0);
  }
}

GridJob::ModuleOutcome GridJob::run_requests(const InferenceModule& module, int module_index, int event, int items,
                                             EventRecord& record) {
  const double first_sent = sg4::Engine::get_clock();
  const bool served = requests_.run_module(module, module_index, event, items, part_elements_, record);
  record.inference_s += sg4::Engine::get_clock() - first_sent;
  if (served) return ModuleOutcome::Done;
  return module.on_failure == OnFailure::Fallback ? ModuleOutcome::FellBack : ModuleOutcome::JobFailed;
}

}  // namespace sonicsim::sim
