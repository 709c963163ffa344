#pragma once
// The upload fast path: requests' uploads from the worker nodes to the servers, which all share the
// site uplink (and the WAN), served by the processor-sharing clock of models/network/upload_sharing
// instead of SimGrid transfers. SimGrid stays the engine and every other transfer's model; the
// clock gives each upload the rate SimGrid 3.32's max-min sharing would (CM02 or LV08, to 1e-9),
// and dates its end in O(log n) where SimGrid re-solves every upload in flight at every start and end.
//
// It is used only where `simulation.network.fast_path` asks for it and these hold, checked before
// the run (otherwise the run uses SimGrid transfers, and why_not() says why):
// - no proxy: every upload's route is a worker NIC, the shared links, a server NIC;
// - SimGrid's configuration: network/crosstraffic off (no reverse-direction term), network/solver
//   maxmin with no maxmin/concurrency-limit, network/optim Lazy (Full gives other last digits);
// - the links of those routes: each a direction of a split-duplex link (SHARED; no FATPIPE or WIFI),
//   on, none twice on a route; the platform (sim/platform.cpp) gives none a profile, and nothing
//   changes a link during the run;
// - no other transfer crosses a link direction an upload uses: answers go the other way (the
//   answer routes are checked), and a SimGrid transfer found on the shared links while the run goes
//   is an internal error;
// - one bandwidth factor and one latency factor (SimGrid 3.32's are single numbers; sonicsim sets no
//   factor callback), and uploads without rate caps (sendto_async has none).
// A private link that binds while the run goes (a worker NIC or a server NIC) is solved exactly by
// the clock itself. Like SimGrid's transfers, an upload due less than surf/precision after a date
// the engine reaches for any reason ends at that date (UploadSharing::advance).
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>

#include "models/network/upload_sharing.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/platform.hpp"
#include "sim/request.hpp"

namespace sonicsim::sim {

class UploadFastPath {
 public:
  // Hands an uploaded request to its server (called in maestro, at the upload's end).
  using Deliver = std::function<void(InFlightRequest*)>;

  // Call after the engine and the platform are made, before the run.
  UploadFastPath(const Scenario& scenario, const FarmPlatform& farm, Deliver deliver);
  UploadFastPath(const UploadFastPath&) = delete;
  UploadFastPath& operator=(const UploadFastPath&) = delete;
  ~UploadFastPath();

  bool active() const { return sharing_.has_value(); }
  // Where the scenario asks for the fast path: "on", or why the run uses SimGrid transfers for the
  // uploads ("off: ..."). Empty where it does not ask.
  const std::string& status() const { return status_; }

  // Starts the upload of `request` (its input bytes) from worker host `from` to its server
  // (record.server). At its end, in maestro, its watcher is told and the server receives it.
  void start(InFlightRequest* request, const simgrid::s4u::Host* from);
  // The upload stops where it is; the server never receives it.
  void cancel(InFlightRequest* request);
  // The run is over: nothing more ends.
  void halt();

 private:
  std::string check_and_build(const Scenario& scenario, const FarmPlatform& farm);
  void arm();
  void fire();
  void end_due_uploads();
  static void on_time_advance();

  Deliver deliver_;
  std::string status_;
  std::optional<network::UploadSharing> sharing_;
  std::unordered_map<const simgrid::s4u::Host*, int> worker_of_;  // host -> its private link
  std::vector<int> worker_kind_, server_kind_;  // by private link index: its (latency, bandwidth) kind
  std::vector<std::vector<int>> route_class_;   // [worker kind][server kind]
  std::vector<const simgrid::s4u::Link*> shared_links_;
  std::vector<InFlightRequest*> uploading_;  // by upload handle
  std::vector<network::UploadSharing::Upload> ended_;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  double armed_at_ = std::numeric_limits<double>::infinity();
  bool halted_ = false;
};

}  // namespace sonicsim::sim
