#pragma once
// Collects what happens during a run: events, requests, batches, GPU busy time and the bytes that
// cross each link. It owns the run's request pool (request_pool.hpp) and job ledger (job_ledger.hpp).
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/container_hash/hash.hpp>
#include <simgrid/s4u.hpp>

#include "analysis/record_sink.hpp"
#include "analysis/records.hpp"
#include "analysis/stats/time_bins.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/job_ledger.hpp"
#include "sim/platform.hpp"
#include "sim/request.hpp"
#include "sim/request_pool.hpp"

namespace sonicsim::sim {

class Recorder {
 public:
  Recorder(const Scenario& scenario, const FarmPlatform& platform);
  Recorder(const Recorder&) = delete;  // its job ledger points at its invariant_violation_
  Recorder& operator=(const Recorder&) = delete;

  // From now on each answered request's record and each batch's go to `sink` as they are made,
  // instead of being kept (a perf_analyzer level streams them to its files: bounded memory).
  void stream_records(RecordSink& sink) { sink_ = &sink; }
  // The names the records refer to by index (servers, models, modules).
  RecordedNames recorded_names() const {
    return {results_.header.server_names, results_.header.model_names, results_.header.module_names};
  }

  // Where requests are made and, once nothing refers to them, recycled.
  RequestPool& request_pool() { return request_pool_; }
  // Every job run: batch-system slots, process runs, cores held, resubmissions.
  JobLedger& job_ledger() { return job_ledger_; }
  const JobLedger& job_ledger() const { return job_ledger_; }

  void request_sent(const InFlightRequest& request);
  // The proxy sent the request on to its server.
  void request_forwarded(const InFlightRequest& request);
  // The response (or rejection, or failure) reached the client; the request object is recycled.
  void request_answered(InFlightRequest* request);
  // The client stopped waiting for the request (`cause`: its deadline passed, or its job ended): it
  // counts as failed now; the object is recycled when its answer arrives (RequestPool::recycle()).
  void request_abandoned(InFlightRequest* request, FailureCause cause);
  void request_retried() { ++failures_.retried; }
  void request_failed_over() { ++failures_.failed_over; }

  void event_started() { ++events_started_; }
  void event_finished(const EventRecord& event);
  void event_failed() { ++events_failed_; }  // its job failed during it
  void event_fell_back() { ++failures_.events_fallen_back; }

  void server_failed();
  // The saturation gate checked a starting job: `refused`, and whether the metric had no value.
  void job_gated(bool refused, bool no_metric) {
    ++gate_.checks;
    if (refused) ++gate_.refused;
    if (no_metric) ++gate_.without_metric;
  }
  void server_restarted() { ++failures_.server_restarts; }
  void connection_opened(bool refused) {
    ++connections_.opened;
    if (refused) ++connections_.refused;
  }
  void event_gated() { ++events_of_refused_jobs_; }  // an event of a job the gate (or the token bucket) refused

  std::int64_t jobs_gated() const { return gate_.refused; }
  void timeseries_row(const TimeseriesRow& row);

  // Seconds GPU `gpu` of `server` has had a kernel running, up to now.
  double gpu_busy_s(int server, int gpu, double now) const;

  std::int64_t new_batch_id() { return next_batch_id_++; }
  void batch_executed(const BatchRecord& batch);
  void kernel_started(int server, int gpu, double now);
  void kernel_finished(int server, int gpu, double now);

  // Triton's statistics for a model on a server (see analysis/triton/triton_stats.hpp).
  TritonModelStats& triton(int server, int model) { return results_.triton[triton_index_[server][model]]; }
  const TritonModelStats* find_triton(int server, int model) const {
    const int i = triton_index_[server][model];
    return i < 0 ? nullptr : &results_.triton[i];
  }

  // Bytes moved between two hosts, charged to every link of SimGrid's route between them.
  void transferred(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to, double bytes, bool to_server);

  SimulationResults finish(double end_s);

  std::int64_t requests_in_flight() const {
    return results_.requests_sent - results_.requests_completed - results_.requests_rejected -
           failures_.requests_failed();
  }
  // Set when the run went past one of limits.hpp's bounds on events, requests or records; the run
  // was stopped there.
  const std::string& limit_reached() const { return limit_reached_; }
  // The events completed so far, in completion order (for a stopping rule while the run goes on).
  const std::vector<EventRecord>& events() const { return results_.events; }
  // The first of the invariants it checks while the run goes on (analysis/invariants.hpp: INV-9,
  // INV-11 to INV-13) that the run broke, described; empty if none.
  const std::string& invariant_violation() const { return invariant_violation_; }

 private:
  struct LinkKey {
    const simgrid::s4u::Link* link;
    bool to_server;
    auto operator<=>(const LinkKey&) const = default;
  };
  struct GpuState {
    int active = 0;  // kernels running now
    double busy_since = 0;
    double busy_s = 0;
  };
  const std::vector<int>& route(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to, bool to_server);
  // Called from an actor: stops the run, which then ends as if every actor had finished.
  void stop_at_limit(const std::string& what);
  void count_failure(FailureCause cause);
  void keep_request_record(const RequestRecord& record);
  // The sections of the results the scenario has (records.hpp), from what the run counted.
  void hand_over_sections();

  const Scenario& scenario_;
  const FarmPlatform& platform_;
  SimulationResults results_;
  // What the sections of the results count, kept here while the run goes on; finish() hands over
  // those the scenario has (results_ holds none until then).
  FailureCounts failures_;
  GateCounts gate_;
  ConnectionLimit connections_;
  std::int64_t events_of_refused_jobs_ = 0;
  std::vector<TimeseriesRow> timeseries_;
  TimeBins busy_bins_;  // device busy time over the run, for the steady-state utilisation interval
  std::int64_t next_batch_id_ = 0;
  std::int64_t events_started_ = 0;
  std::int64_t events_failed_ = 0;
  RequestPool request_pool_;
  JobLedger job_ledger_;
  std::vector<std::vector<GpuState>> gpu_state_;  // [server][gpu]
  std::vector<std::vector<int>> triton_index_;    // [server][model] -> results_.triton, -1 if not served
  std::map<LinkKey, int> link_index_;
  using HostPair = std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>;
  std::unordered_map<HostPair, std::vector<int>, boost::hash<HostPair>> routes_;  // looked up per transfer
  std::string limit_reached_;
  std::string invariant_violation_;
  RecordSink* sink_ = nullptr;
};

}  // namespace sonicsim::sim
