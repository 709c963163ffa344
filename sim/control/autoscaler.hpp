#pragma once
// KEDA and the Kubernetes HPA scaling a server group as one Deployment of Triton pods
// (docs/reference/supersonic.md §1.6, §3, §4, §7). The group's servers are the GPU pool: each runs at
// most one pod.
//   - Every sync period the HPA (models/control/hpa.hpp) turns the metric Prometheus gives into the
//     Deployment's replicas; with min_replicas 0, KEDA alone takes it from 0 to 1 and back to 0 after
//     its cooldown, at its polling interval (keda pkg/scaling/executor/scale_scaledobjects.go).
//   - The ReplicaSet controller creates or deletes pods to match. A new pod waits for a free server
//     (pending), starts (image pull and model load, drawn from `startup`), turns ready at the next
//     readiness probe, and the proxy sends it requests after its next DNS refresh.
//   - A deleted pod leaves the proxy at its next DNS refresh. After its preStop sleep Triton refuses
//     new requests (UNAVAILABLE) and finishes those it holds; at the end of the grace period it is
//     killed, and what it still holds fails as in a server failure. Its server is then free.
// Which pods go on scale-down follows kubernetes pkg/controller/controller_utils.go
// (ActivePodsWithRanks.Less): pending before starting before ready, the newest first.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/records.hpp"
#include "models/control/hpa.hpp"
#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
#include "sim/control/prometheus.hpp"
#include "sim/control/proxy.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"

namespace sonicsim::sim {

class Autoscaler {
 public:
  Autoscaler(const Scenario& scenario, const FarmPlatform& farm, std::vector<std::unique_ptr<InferenceServer>>& servers,
             Proxy& proxy, Prometheus& prometheus);

  // The servers that run a pod at t = 0; the others start without one.
  static std::vector<bool> initially_running(const Scenario& scenario, const FarmPlatform& farm);
  // Creates the controller's and the servers' actors. Call once, before the simulation runs.
  void start();

  // The pods by phase, the replicas asked for, and the metric the autoscaler reads, now.
  void describe(TimeseriesRow& row) const;
  AutoscalingTotals totals(double end_s) const;

 private:
  enum class Phase { Pending, Starting, Ready, Draining, Gone };
  struct Pod {
    Phase phase = Phase::Pending;
    int slot = -1;  // index into slots_ once scheduled
    bool deleted = false;
  };
  struct Slot {
    int server = 0;
    int pod = -1;  // the pod it runs, -1: free
  };

  void control();
  void set_replicas(int replicas);
  void schedule_pending();
  void run_slot(int slot);
  void wait_while_free(Slot& slot);
  // Waits until `until_s` or the pod's deletion, refusing what reaches the stopped server; whether
  // the pod was deleted.
  bool wait_for(Slot& slot, double until_s);
  void drain(Slot& slot);
  void refuse_arrivals(InferenceServer& server, std::int64_t* counter);
  void free_slot(Slot& slot);
  void change_phase(Pod& pod, Phase phase);
  void forget_gone_pods();
  void account();  // integrates up to now, before the pods change
  void accrue(AutoscalingTotals& totals, double seconds) const;
  int count(Phase phase) const;

  const Scenario& scenario_;
  const FarmPlatform& farm_;
  std::vector<std::unique_ptr<InferenceServer>>& servers_;
  Proxy& proxy_;
  Prometheus& prometheus_;
  const AutoscalingSpec& spec_;
  HorizontalPodAutoscaler hpa_;
  Rng rng_;                // start-up times, in the order pods are scheduled
  int replicas_ = 0;       // the Deployment's spec.replicas
  std::vector<Pod> pods_;  // the pods that exist, by creation order
  std::vector<Slot> slots_;
  double last_active_s_ = 0;  // KEDA: the last poll at which the trigger was active
  AutoscalingTotals totals_;
  double accounted_to_s_ = 0;
};

}  // namespace sonicsim::sim
