#include "sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>

#include "analysis/invariants.hpp"
#include "analysis/stats/cycle_estimate.hpp"
#include "analysis/stats/steady_estimates.hpp"
#include "models/closed_form/analytic.hpp"
#include "models/io/input_error.hpp"
#include "models/io/limits.hpp"
#include "models/jobs/job_submission.hpp"
#include "models/closed_form/load_cycle.hpp"
#include "models/scenario/scenario_size.hpp"
#include "sim/client/batch_system.hpp"
#include "sim/client/grid_job.hpp"
#include "sim/client/job_placement.hpp"
#include "sim/client/threaded_job.hpp"
#include "sim/control/autoscaler.hpp"
#include "sim/control/load_balancer.hpp"
#include "sim/control/prometheus.hpp"
#include "sim/control/proxy.hpp"
#include "sim/control/saturation_gate.hpp"
#include "sim/engine_setup.hpp"
#include "sim/platform.hpp"
#include "sim/progress_watch.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"
#include "sim/control/server_failures.hpp"
#include "sim/upload_fast_path.hpp"

namespace sonicsim {
namespace sg4 = simgrid::s4u;
namespace {

// The farm at a Prometheus scrape, the metrics over the window of the autoscaler (or the gate).
void record_timeseries_row(const Scenario& scenario, const sim::Prometheus& prometheus,
                           const sim::Autoscaler* autoscaler, const RequestBalancer& balancer,
                           sim::Recorder& recorder) {
  TimeseriesRow row;
  row.t_s = sg4::Engine::get_clock();
  const double window_s = scenario.autoscaled_group() ? scenario.autoscaled_group()->autoscaling->metric_window_s
                                                      : scenario.platform.proxy->gate->window_s;
  if (autoscaler) {
    autoscaler->describe(row);
  } else {
    for (int s = 0; s < balancer.servers(); ++s) row.ready += balancer.ready(s) ? 1 : 0;
    row.desired = balancer.servers();
    row.metric = prometheus.query(scenario.platform.proxy->gate->metric, window_s);
  }
  row.requests_per_s = prometheus.requests_per_s(window_s);
  row.queue_ms = prometheus.queue_ms_per_request(window_s);
  row.gpu_utilization = prometheus.gpu_utilization(window_s);
  row.jobs_running = recorder.job_ledger().running();
  row.jobs_queued = recorder.job_ledger().queued();
  row.jobs_gated = recorder.jobs_gated();
  recorder.timeseries_row(row);
}

bool workload_running(const sg4::Engine& engine) {
  for (const sg4::ActorPtr& actor : engine.get_all_actors())
    if (!actor->is_daemon()) return true;  // servers, the proxy and Prometheus are daemons
  return false;
}

// A run with a stopping rule goes in slices that end at checkpoints 25% apart, and stops at the
// first checkpoint where the steady-state mean per-event time is precise enough, at its maximum
// time, or when its workload ends. Only checkpoints at load count (records.hpp, PrecisionStop):
// from `load_from_s`, when every job has been submitted, while the running jobs have not fallen by
// more than kDrainTolerance since the first of them (after the last submission they can only fall,
// as jobs end). A workload that drains runs to its end.
// Returns when the run ended: a slice runs the clock to its end even when the workload ended
// earlier, so that is when the last of the workload's actors did.
// A dynamic farm (a load cycle: waves, an autoscaler) is checked at the ends of its cycles only,
// and its estimate covers the whole cycles that repeat its load (cycle_estimate.hpp): after the
// last wave's cycle, or once its running jobs drain, it runs to its end.
double run_to_precision(sg4::Engine& engine, const Scenario& scenario, const sim::Recorder& recorder,
                        double load_from_s, PrecisionStop& stop) {
  const StoppingRule& rule = *scenario.simulation.stop_at_precision;
  double cap = std::min(rule.max_time_s.value_or(limits::kMaxDurationS),
                        scenario.workload.duration_s.value_or(limits::kMaxDurationS));
  stop = PrecisionStop{rule.relative_half_width, 0, false, load_from_s, false, std::nullopt};
  const std::optional<LoadCycle> cycle = load_cycle(scenario);
  const bool waves = cycle && cycle->waves();
  if (cycle)
    stop.cycles =
        CycleStop{cycle->cycle_s, cycle->repeats_from_s, waves ? std::optional(cycle->repeats_until_s) : std::nullopt};
  std::optional<std::int64_t> running_at_load;  // at the first checkpoint at load
  auto workload_end_s = std::make_shared<double>(0);
  sg4::Actor::on_termination_cb([workload_end_s](const sg4::Actor& actor) {
    if (!actor.is_daemon()) *workload_end_s = sg4::Engine::get_clock();
  });
  // Event flows at once: a job's streams each run their own events.
  const std::size_t jobs_at_once =
      scenario.workload.submit ? 0 : static_cast<std::size_t>(scenario.workload.jobs) * scenario.workload.streams;
  // The first checkpoint: when the events an interval needs should have completed, by the closed
  // form (each job completes one event per t_ideal), and at least two per job.
  const double events_needed =
      jobs_at_once == 1 ? 2.0 : double(stats::kBatches * std::max(stats::kMinBatchSize, jobs_at_once));
  const double t_ideal = std::max(analytic_model(scenario).ideal_s(), 1e-6);
  const double first_checkpoint =
      cycle ? cycle->cycle_s : t_ideal * std::max(2.0, events_needed / double(std::max<std::size_t>(jobs_at_once, 1)));
  for (double checkpoint = first_checkpoint;; checkpoint = cycle ? checkpoint + cycle->cycle_s : checkpoint * 1.25) {
    const double until = std::min(checkpoint, cap);
    engine.run_until(until);
    ++stop.checks;
    if (waves && until > cycle->repeats_until_s) stop.drained = true;  // the waves are over
    // Waves fill and empty the farm within each cycle: their cycles say when the load repeats.
    // Other loads are checked from the last submission until they drain.
    if ((waves ? until > cycle->repeats_from_s : until >= load_from_s) && !stop.drained) {
      const std::int64_t running = recorder.job_ledger().running();
      if (!running_at_load) running_at_load = running;
      stop.drained =
          !waves && static_cast<double>(running) < (1 - kDrainTolerance) * static_cast<double>(*running_at_load);
      const double start_s = estimate_start_s(scenario.workload.warmup_s, stop);
      const SteadyEventTime estimate = cycle ? cycle_event_time(recorder.events(), start_s, cycle->cycle_s, until)
                                             : steady_event_time(recorder.events(), start_s, jobs_at_once);
      stop.reached = !stop.drained && precise_enough(estimate, rule.relative_half_width);
    }
    if (!workload_running(engine)) {  // its jobs ended: it drained, unless the estimate was precise first
      stop.drained = stop.drained || !stop.reached;
      return *workload_end_s;
    }
    if (stop.reached || until >= cap || !recorder.limit_reached().empty() || sim::engine_deadlocked())
      return sg4::Engine::get_clock();
  }
}

}  // namespace

SimulationResults simulate(const Scenario& scenario, const ProgressObserver& observer) {
  const auto engine_owner = sim::make_engine(scenario.simulation);
  sg4::Engine& engine = *engine_owner;

  sim::configure_stack_guards(simulated_actors(scenario));
  const sim::FarmPlatform farm = sim::build_platform(scenario);
  sim::Recorder recorder(scenario, farm);
  const std::vector<bool> running = sim::Autoscaler::initially_running(scenario, farm);
  std::vector<std::unique_ptr<sim::InferenceServer>> servers = sim::start_servers(scenario, farm, recorder, running);
  RequestBalancer balancer = sim::make_balancer(scenario, farm);
  for (std::size_t s = 0; s < running.size(); ++s)
    if (!running[s]) balancer.set_ready(static_cast<int>(s), false);  // a server without a pod is in no DNS answer
  std::optional<sim::Proxy> proxy;
  if (scenario.platform.proxy) {
    proxy.emplace(*scenario.platform.proxy, farm.proxy, balancer, recorder);
    proxy->start();
  }
  sim::start_server_failures(scenario, farm, servers, balancer, proxy ? &*proxy : nullptr, recorder);

  std::optional<sim::Prometheus> prometheus;
  std::optional<sim::SaturationGate> gate;
  std::optional<sim::Autoscaler> autoscaler;
  if (scenario.scraped()) {
    prometheus.emplace(scenario, farm, servers, balancer, recorder);
    prometheus->start();
    if (scenario.platform.proxy->gate) gate.emplace(*scenario.platform.proxy->gate, *prometheus, balancer, recorder);
    if (scenario.autoscaled_group()) {
      autoscaler.emplace(scenario, farm, servers, *proxy, *prometheus);
      autoscaler->start();
    }
    prometheus->after_scrape(
        [&] { record_timeseries_row(scenario, *prometheus, autoscaler ? &*autoscaler : nullptr, balancer, recorder); });
  }

  sim::UploadFastPath uploads(scenario, farm,
                              [&servers](sim::InFlightRequest* r) { servers[r->record.server]->receive(r); });
  const sim::JobContext context{scenario,
                                servers,
                                balancer,
                                recorder,
                                proxy ? &*proxy : nullptr,
                                gate ? &*gate : nullptr,
                                uploads.active() ? &uploads : nullptr};
  std::vector<PlannedJob> jobs = plan_jobs(scenario.workload, scenario.simulation.seed);
  double last_submission_s = 0;  // the workload is at its load from then
  std::optional<std::int64_t> events_total = 0;
  for (const PlannedJob& job : jobs) {
    last_submission_s = std::max(last_submission_s, job.submit_s);
    events_total = job.events && events_total ? std::optional(*events_total + *job.events) : std::nullopt;
  }
  const sim::ProgressWatch watch(scenario, events_total, recorder, observer);
  std::optional<sim::BatchSystem> batch_system;
  if (scenario.workload.submit) {
    batch_system.emplace(farm, sim::core_slots(scenario, farm), std::move(jobs), context);
    batch_system->start();
  } else {
    const std::vector<int> placement = sim::place_jobs(scenario, farm);
    const bool threaded = scenario.workload.threaded();
    for (int j = 0; j < scenario.workload.jobs; ++j) {
      sg4::Host* host = farm.workers[placement[j]].host;
      const PlannedJob& job = jobs[static_cast<std::size_t>(j)];
      if (threaded) {
        recorder.job_ledger().placed(j, placement[j]);
        sg4::Actor::create("job-" + std::to_string(j), host,
                           sim::ThreadedJob(j, host, job.submit_s, job.events, context));
      } else {
        sg4::Actor::create("job-" + std::to_string(j), host, sim::GridJob(j, host, job.submit_s, job.events, context));
      }
    }
  }

  std::optional<PrecisionStop> precision_stop;
  double end_s = 0;
  if (scenario.simulation.stop_at_precision) {
    end_s = run_to_precision(engine, scenario, recorder, last_submission_s, precision_stop.emplace());
  } else if (scenario.workload.duration_s) {
    engine.run_until(*scenario.workload.duration_s);
  } else {
    engine.run();
  }
  if (!recorder.limit_reached().empty())
    throw InputError(scenario.file, scenario.workload.duration_s ? "/workload/duration" : "/workload",
                     recorder.limit_reached() + " (at t = " + std::to_string(sg4::Engine::get_clock()) + " s)");
  if (sim::engine_deadlocked())
    throw InputError(scenario.file, "",
                     "the simulation cannot go on at t = " + std::to_string(sg4::Engine::get_clock()) +
                         " s: " + std::to_string(recorder.requests_in_flight()) +
                         " requests wait for answers that no server will give, and nothing else can happen (a "
                         "deadlock); sonicsim does not simulate this scenario correctly, please report it");
  std::string violation = recorder.invariant_violation();
  SimulationResults results = recorder.finish(precision_stop ? end_s : sg4::Engine::get_clock());
  results.network_fast_path = uploads.status();
  results.precision_stop = precision_stop;
  if (autoscaler) results.autoscaling = autoscaler->totals(results.end_s);
  for (const sim::ServerNode& node : farm.servers)
    if (!scenario.platform.servers[static_cast<std::size_t>(node.group)].autoscaling)
      results.fixed_gpu_seconds += static_cast<double>(node.gpus.size()) * results.end_s;
  const bool cut_short = scenario.workload.duration_s || precision_stop;
  if (violation.empty()) violation = first_invariant_violation(results, cut_short);
  if (!violation.empty())
    throw std::logic_error("sonicsim internal error: " + violation + " (" + scenario.file +
                           "); please report it with the scenario");
  // A duration-limited run leaves actors blocked on the servers' semaphores and timers set: end
  // them before the servers go away.
  for (const auto& server : servers) server->halt();
  uploads.halt();
  sg4::Actor::kill_all();
  engine.run();
  return results;
}

std::string simulation_library_version() {
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  return "SimGrid " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace sonicsim
