#pragma once
// What a grid job sees of the farm: the servers it sends to, how it picks one, where it records.
#include <memory>
#include <vector>

#include "models/control/request_balancer.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/control/proxy.hpp"
#include "sim/control/saturation_gate.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"
#include "sim/upload_fast_path.hpp"

namespace sonicsim::sim {

struct JobContext {
  const Scenario& scenario;
  std::vector<std::unique_ptr<InferenceServer>>& servers;
  RequestBalancer& balancer;
  Recorder& recorder;
  Proxy* proxy = nullptr;             // null: jobs talk to the servers directly
  SaturationGate* gate = nullptr;     // null: no saturation gate
  UploadFastPath* uploads = nullptr;  // null: uploads are SimGrid transfers
};

}  // namespace sonicsim::sim
