#include "sim/recorder.hpp"

#include <algorithm>

#include "analysis/invariants.hpp"
#include "analysis/run_header.hpp"
#include "models/io/limits.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

Recorder::Recorder(const Scenario& scenario, const FarmPlatform& platform) : scenario_(scenario), platform_(platform) {
  results_.header = run_header(scenario);
  const RunHeader& header = results_.header;
  for (const ServerNode& s : platform.servers) gpu_state_.emplace_back(s.gpus.size());
  for (std::size_t server = 0; server < platform.servers.size(); ++server) {
    std::vector<int>& index = triton_index_.emplace_back(scenario.models.size(), -1);
    for (const std::string& name : scenario.platform.servers[platform.servers[server].group].models) {
      const int model = scenario.model_index(name);
      index[model] = static_cast<int>(results_.triton.size());
      TritonModelStats& stats = results_.triton.emplace_back();
      stats.server = static_cast<int>(server);
      stats.model = model;
    }
  }
  job_ledger_ = JobLedger(header.threaded, header.batch_system, header.threads,
                          header.batch_system ? 0 : scenario.workload.jobs, invariant_violation_);
}

void Recorder::server_failed() {
  if (failures_.server_failures >= limits::kMaxServerFailures)
    stop_at_limit("the run reached " + std::to_string(limits::kMaxServerFailures) +
                  " server failures, the most sonicsim simulates");
  ++failures_.server_failures;
}

void Recorder::stop_at_limit(const std::string& what) {
  limit_reached_ = what;
  sg4::Actor::kill_all();
  sg4::this_actor::exit();
}

void Recorder::event_finished(const EventRecord& event) {
  if (static_cast<std::int64_t>(results_.events.size()) >= limits::kMaxEvents)
    stop_at_limit("the run reached " + std::to_string(limits::kMaxEvents) +
                  " events, the most sonicsim keeps in memory");
  results_.events.push_back(event);
  job_ledger_.event_done(event.job);
}

void Recorder::request_sent(const InFlightRequest& request) {
  if (results_.requests_sent >= limits::kMaxRequests)
    stop_at_limit("the run reached " + std::to_string(limits::kMaxRequests) + " requests, the most sonicsim simulates");
  ++results_.requests_sent;
  if (platform_.proxy)
    transferred(request.client, platform_.proxy, request.record.input_bytes, true);
  else if (request.record.server >= 0)  // -1: no ready server, nothing is sent
    transferred(request.client, platform_.servers[request.record.server].host, request.record.input_bytes, true);
}

void Recorder::request_forwarded(const InFlightRequest& request) {
  transferred(platform_.proxy, platform_.servers[request.record.server].host, request.record.input_bytes, true);
}

void Recorder::request_answered(InFlightRequest* request) {
  if (request->answered && invariant_violation_.empty())
    invariant_violation_ = invariant_broken(Invariant::AnsweredOnce,
                                            "request " + std::to_string(request->record.id) + " was answered twice");
  request->answered = true;
  const RequestRecord& record = request->record;
  if (record.status == RequestStatus::Completed) {
    ++results_.requests_completed;
    const sg4::Host* server = platform_.servers[record.server].host;
    if (platform_.proxy) {
      transferred(server, platform_.proxy, record.output_bytes, false);
      transferred(platform_.proxy, request->client, record.output_bytes, false);
    } else {
      transferred(server, request->client, record.output_bytes, false);
    }
  } else if (record.status == RequestStatus::Failed) {
    count_failure(record.failure);
  } else {
    ++results_.requests_rejected;
  }
  keep_request_record(record);
  request_pool_.recycle(request);
}

void Recorder::request_abandoned(InFlightRequest* request, FailureCause cause) {
  request->abandoned = true;
  request->answered = true;
  RequestRecord& record = request->record;
  record.status = RequestStatus::Failed;
  record.failure = cause;
  record.received_s = sg4::Engine::get_clock();
  count_failure(cause);
  keep_request_record(record);
}

void Recorder::count_failure(FailureCause cause) {
  switch (cause) {
    case FailureCause::Unavailable: ++failures_.unavailable; break;
    case FailureCause::DeadlineExceeded: ++failures_.deadline_exceeded; break;
    case FailureCause::Cancelled: ++failures_.cancelled; break;
    case FailureCause::None:
      if (invariant_violation_.empty())
        invariant_violation_ = invariant_broken(Invariant::FailureHasCause, "a request failed without a cause");
      break;
  }
}

void Recorder::keep_request_record(const RequestRecord& record) {
  if (sink_) return sink_->request(record);
  if (scenario_.simulation.outputs.requests) {
    if (static_cast<std::int64_t>(results_.requests.size()) >= limits::kMaxRecordedRequests)
      stop_at_limit("the run reached " + std::to_string(limits::kMaxRecordedRequests) +
                    " requests to write to requests.csv, the most sonicsim keeps in memory (leave \"requests\" out of "
                    "/simulation/outputs)");
    results_.requests.push_back(record);
  }
}

void Recorder::batch_executed(const BatchRecord& batch) {
  const int max_units = std::max(1, scenario_.models[static_cast<std::size_t>(batch.model)].triton.max_batch_size);
  if (batch.units > max_units && invariant_violation_.empty())
    invariant_violation_ = invariant_broken(
        Invariant::BatchWithinMaxSize,
        "batch " + std::to_string(batch.id) + " of model \"" + scenario_.models[batch.model].name + "\" holds " +
            std::to_string(batch.units) + " units, more than max_batch_size " + std::to_string(max_units));
  ++results_.batches_executed;
  results_.batch_units_executed += batch.units;
  if (sink_) return sink_->batch(batch);
  if (scenario_.simulation.outputs.batches) {
    if (static_cast<std::int64_t>(results_.batches.size()) >= limits::kMaxRecordedBatches)
      stop_at_limit("the run reached " + std::to_string(limits::kMaxRecordedBatches) +
                    " batches to write to batches.csv, the most sonicsim keeps in memory (leave \"batches\" out of "
                    "/simulation/outputs)");
    results_.batches.push_back(batch);
  }
}

double Recorder::gpu_busy_s(int server, int gpu, double now) const {
  const GpuState& g = gpu_state_[server][gpu];
  return g.busy_s + (g.active > 0 ? now - g.busy_since : 0);
}

void Recorder::timeseries_row(const TimeseriesRow& row) {
  if (static_cast<std::int64_t>(timeseries_.size()) >= limits::kMaxTimeseriesRows)
    return stop_at_limit("more than " + std::to_string(limits::kMaxTimeseriesRows) +
                         " Prometheus scrapes (time series rows); scrape less often");
  timeseries_.push_back(row);
}

void Recorder::kernel_started(int server, int gpu, double now) {
  GpuState& g = gpu_state_[server][gpu];
  if (g.active++ == 0) g.busy_since = now;
}

void Recorder::kernel_finished(int server, int gpu, double now) {
  GpuState& g = gpu_state_[server][gpu];
  if (--g.active == 0) {
    g.busy_s += now - g.busy_since;
    busy_bins_.add(g.busy_since, now);
  }
}

const std::vector<int>& Recorder::route(const sg4::Host* from, const sg4::Host* to, bool to_server) {
  const auto key = std::make_pair(from, to);
  auto it = routes_.find(key);
  if (it != routes_.end()) return it->second;
  std::vector<sg4::Link*> links;
  double latency = 0;
  from->route_to(to, links, &latency);
  std::vector<int> indices;
  for (const sg4::Link* link : links) {
    const LinkKey link_key{link, to_server};
    auto [pos, inserted] = link_index_.emplace(link_key, static_cast<int>(results_.links.size()));
    if (inserted) {
      std::string name = link->get_name();
      for (const char* suffix : {"_UP", "_DOWN"})
        if (name.ends_with(suffix)) name.resize(name.size() - std::string_view(suffix).size());
      const bool private_link =
          std::find(platform_.worker_nics.begin(), platform_.worker_nics.end(), link) != platform_.worker_nics.end();
      results_.links.push_back(
          {name + (to_server ? " (to servers)" : " (to workers)"), link->get_bandwidth(), 0, !private_link});
    }
    indices.push_back(pos->second);
  }
  return routes_.emplace(key, std::move(indices)).first->second;
}

void Recorder::transferred(const sg4::Host* from, const sg4::Host* to, double bytes, bool to_server) {
  for (int index : route(from, to, to_server)) results_.links[index].bytes += bytes;
}

SimulationResults Recorder::finish(double end_s) {
  results_.end_s = end_s;
  job_ledger_.finish(end_s, results_, failures_);
  results_.requests_in_flight_at_end = requests_in_flight();
  results_.events_incomplete = events_started_ - events_failed_ - static_cast<std::int64_t>(results_.events.size());
  for (std::size_t server = 0; server < gpu_state_.size(); ++server) {
    for (std::size_t gpu = 0; gpu < gpu_state_[server].size(); ++gpu) {
      const GpuState& g = gpu_state_[server][gpu];
      const double open_interval = g.active > 0 ? end_s - g.busy_since : 0;  // kernels cut off by the end
      results_.gpus.push_back({static_cast<int>(server), static_cast<int>(gpu), g.busy_s + open_interval});
      if (g.active > 0) busy_bins_.add(g.busy_since, end_s);
    }
  }
  results_.busy_bin_s = busy_bins_.width_s();
  results_.busy_bins_s = busy_bins_.totals();
  hand_over_sections();
  return std::move(results_);
}

void Recorder::hand_over_sections() {
  if (scenario_.requests_can_fail()) results_.failures = failures_;
  const std::optional<ProxySpec>& proxy = scenario_.platform.proxy;
  if (proxy && proxy->gate) {
    gate_.threshold_ms = proxy->gate->threshold_ms;
    gate_.events_on_cpu = events_of_refused_jobs_;
    results_.gate = gate_;
  }
  if (proxy && proxy->connection_limit) {
    connections_.events_on_cpu = events_of_refused_jobs_;
    results_.connection_limit = connections_;
  }
  if (scenario_.scraped()) results_.scrapes = Scrapes{std::move(timeseries_)};
}

}  // namespace sonicsim::sim
