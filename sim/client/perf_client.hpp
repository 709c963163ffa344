#pragma once
// perf_analyzer's clients on one host: closed-loop clients (concurrency N) or a request generator
// (request rate, constant or Poisson spacing). Every request is timed from the start of its send
// to the end of its receive; those that end inside the measurement windows are kept.
#include <memory>
#include <vector>

#include <simgrid/s4u.hpp>

#include "analysis/outputs/perf_report.hpp"
#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
#include "sim/control/load_balancer.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"

namespace sonicsim::sim {

class PerfClients {
 public:
  PerfClients(const Scenario& scenario, simgrid::s4u::Host* host, std::vector<std::unique_ptr<InferenceServer>>& servers,
              RequestBalancer& balancer, Recorder& recorder, double level, PerfMeasurement& measurement);

  // Creates the client actors (daemons: they stop when the measurement actor ends the run).
  void start();

 private:
  void closed_loop(int client);
  void generate_requests();
  // `rng`: the client's own stream, for its send and receive times (null where both are constants).
  void one_request(int client, Rng* rng);
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
  Rng rng_;  // the request-rate load's Poisson gaps
  bool draws_ = false;  // the send or receive time is drawn (not a constant)
  std::vector<simgrid::s4u::Mailbox*> free_mailboxes_;
  int next_mailbox_ = 0;
  int next_request_ = 0;
};

}  // namespace sonicsim::sim
