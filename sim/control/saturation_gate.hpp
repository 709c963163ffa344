#pragma once
// SuperSONIC's saturation gate (docs/reference/supersonic.md §1.4, §1.5): at a job's start it evaluates
// the load metric over what Prometheus has scraped so far and refuses the job above the threshold,
// or when no server is ready.
#include "models/control/request_balancer.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/control/prometheus.hpp"
#include "sim/recorder.hpp"

namespace sonicsim::sim {

class SaturationGate {
 public:
  SaturationGate(const SaturationGateSpec& spec, const Prometheus& prometheus, const RequestBalancer& balancer,
                 Recorder& recorder)
      : spec_(spec), prometheus_(prometheus), balancer_(balancer), recorder_(recorder) {}

  // A job starts now: whether the gate lets it use the servers.
  bool admit();

 private:
  SaturationGateSpec spec_;
  const Prometheus& prometheus_;
  const RequestBalancer& balancer_;
  Recorder& recorder_;
};

}  // namespace sonicsim::sim
