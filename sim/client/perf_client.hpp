#pragma once
// perf_analyzer's clients on one host: closed-loop clients (concurrency N) or a request generator
// (request rate, constant or Poisson spacing). Every request is timed from the start of its send
// to the end of its receive; those that end inside the measurement windows are kept.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "analysis/perf_measurement.hpp"
#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
#include "sim/client/count_windows.hpp"
#include "sim/control/load_balancer.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"
#include "sim/upload_fast_path.hpp"

namespace sonicsim::sim {

class PerfClients {
 public:
  // `uploads`: the upload fast path, or null (uploads are SimGrid transfers).
  PerfClients(const Scenario& scenario, simgrid::s4u::Host* host,
              std::vector<std::unique_ptr<InferenceServer>>& servers, RequestBalancer& balancer, Recorder& recorder,
              double level, PerfMeasurement& measurement, UploadFastPath* uploads);

  // With count windows: answered requests go to `windows` instead of the fixed windows.
  void collect_into(CountWindows* windows) { count_windows_ = windows; }
  // Creates the client actors (daemons: they stop when the measurement actor ends the run).
  void start();
  // Set when a request-rate level reached perf_requests_in_flight_cap (the server did not keep up);
  // the run was stopped there.
  const std::string& limit_reached() const { return limit_reached_; }

 private:
  // A request-rate level's requests run on slots: actors that each run one request at a time and
  // wait, idle, for the next the generator hands them. There are as many as requests were ever in
  // flight at once, so a level holds what it has in flight, not what it has sent.
  struct Slot {
    simgrid::s4u::SemaphorePtr handed = simgrid::s4u::Semaphore::create(0);
    int request = 0;
  };

  // One of perf_analyzer --async's worker threads (its ConcurrencyManager::Infer) and the completion
  // thread of its client library (InferenceServerHttpClient::AsyncTransfer, gRPC's alike): the first
  // sends its clients' requests one at a time, the second handles their responses one at a time.
  struct ClientThread {
    simgrid::s4u::MutexPtr sender = simgrid::s4u::Mutex::create();
    simgrid::s4u::MutexPtr completer = simgrid::s4u::Mutex::create();
  };

  void closed_loop(int client);
  void generate_requests();
  void hand_to_slot(int request);
  void run_slot(Slot& slot);
  // `rng`: the client's own stream, for its send and receive times (null where both are constants).
  // `thread`: the client's shared thread, or null (a thread of its own).
  void one_request(int client, Rng* rng, ClientThread* thread = nullptr);
  std::unique_ptr<Rng> client_rng(std::int64_t client) const;
  simgrid::s4u::Mailbox* take_mailbox();

  const Scenario& scenario_;
  const PerfAnalyzerLoad& load_;
  simgrid::s4u::Host* host_;
  std::vector<std::unique_ptr<InferenceServer>>& servers_;
  RequestBalancer& balancer_;
  Rng balance_rng_;  // the load's server choices (random, least_request)
  Recorder& recorder_;
  double level_;
  PerfMeasurement& measurement_;
  UploadFastPath* uploads_;
  Rng rng_;             // the request-rate load's Poisson gaps
  bool draws_ = false;  // the send or receive time is drawn (not a constant)
  CountWindows* count_windows_ = nullptr;
  std::vector<std::unique_ptr<ClientThread>> threads_;  // with client_threads only
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> idle_slots_;
  std::vector<simgrid::s4u::Mailbox*> free_mailboxes_;
  int next_mailbox_ = 0;
  int next_request_ = 0;
  std::int64_t in_flight_ = 0;  // request-rate requests sent and not yet done
  std::int64_t in_flight_cap_ = 0;
  std::string limit_reached_;
};

}  // namespace sonicsim::sim
