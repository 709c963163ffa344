#include "sim/upload_fast_path.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include <xbt/config.hpp>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

struct Route {
  std::vector<sg4::Link*> links;
  double latency_s = 0;
};

Route route(const sg4::Host* from, const sg4::Host* to) {
  Route r;
  from->route_to(to, r.links, &r.latency_s);
  return r;
}

// What SimGrid 3.32 makes of a transfer on this route (src/surf/network_cm02.cpp,
// NetworkCm02Model::communicate, comm_action_set_bounds and comm_action_set_variable): the sharing
// penalty is the route's latency, plus weight-S / bandwidth per link where weight-S is set (LV08);
// the variable's bound is the slowest link, and TCP-gamma / (2 × latency) below it; the latency
// phase is the latency times the latency factor, and a transfer without one starts at penalty 1.
network::RouteClass route_class(const Route& r) {
  namespace config = simgrid::config;
  const double weight_s = config::get_value<double>("network/weight-S");
  double penalty = r.latency_s;
  if (weight_s > 0)
    for (const sg4::Link* link : r.links) penalty += weight_s / link->get_bandwidth();
  double bound = -1.0;
  for (const sg4::Link* link : r.links)
    if (bound == -1.0 || link->get_bandwidth() < bound) bound = link->get_bandwidth();
  if (r.latency_s > 0) bound = std::min(bound, config::get_value<double>("network/TCP-gamma") / (2.0 * r.latency_s));
  network::RouteClass c;
  c.latency_s = r.latency_s * config::get_value<double>("network/latency-factor");
  c.penalty_s = c.latency_s > 0 ? penalty : 1.0;
  c.bound_Bps = bound;  // 0 (TCP-gamma 0) is no bound, for SimGrid's solver as for ours
  return c;
}

// The fast path of the engine now running (one per process, as the engine): the one the engine's
// time-advance signal, connected once per process, reaches.
UploadFastPath* running = nullptr;

}  // namespace

UploadFastPath::UploadFastPath(const Scenario& scenario, const FarmPlatform& farm, Deliver deliver)
    : deliver_(std::move(deliver)) {
  if (!scenario.simulation.network.fast_path) return;
  const std::string why_not = check_and_build(scenario, farm);
  status_ = why_not.empty() ? "on" : "off: " + why_not;
  if (!why_not.empty()) {
    sharing_.reset();
    return;
  }
  static std::once_flag connected;
  std::call_once(connected, [] { sg4::Engine::on_time_advance_cb([](double) { on_time_advance(); }); });
  running = this;
}

UploadFastPath::~UploadFastPath() {
  halt();
  if (running == this) running = nullptr;
}

// SimGrid calls this at every date its engine reaches, right after its models have finished the
// actions due then (engine's solve(): update_actions_state, then on_time_advance): the uploads
// due within surf/precision of it end here, as SimGrid's own transfers would.
void UploadFastPath::on_time_advance() {
  if (running && !running->halted_ && running->sharing_->due(sg4::Engine::get_clock())) running->end_due_uploads();
}

// Empty if the fast path is exact for this run (and then built), else why not.
std::string UploadFastPath::check_and_build(const Scenario& scenario, const FarmPlatform& farm) {
  namespace config = simgrid::config;
  if (scenario.platform.proxy) return "a proxy relays the requests, and its NIC carries uploads and answers alike";
  if (config::get_value<bool>("network/crosstraffic")) return "network/crosstraffic is on";
  if (config::get_value<std::string>("network/solver") != "maxmin")
    return "SimGrid's network/solver is " + config::get_value<std::string>("network/solver") + ", not maxmin";
  if (config::get_value<int>("maxmin/concurrency-limit") != -1) return "SimGrid's maxmin/concurrency-limit is set";
  if (config::get_value<std::string>("network/optim") != "Lazy") return "SimGrid's network/optim is not Lazy";
  if (farm.workers.empty() || farm.servers.empty()) return "no worker node or no server";

  // Every upload route: its worker's NIC, the shared links, its server's NIC. Checked from every
  // worker to the first server and from the first worker to every server; the two star zones joined
  // by one route (sim/platform.cpp) make every other route the same three parts.
  const Route reference = route(farm.workers[0].host, farm.servers[0].host);
  if (reference.links.size() < 3) return "an upload route has no shared link";
  const std::vector<sg4::Link*> shared(reference.links.begin() + 1, reference.links.end() - 1);
  std::vector<const sg4::Link*> worker_links, server_links;
  for (const WorkerNode& worker : farm.workers) {
    const Route r = route(worker.host, farm.servers[0].host);
    if (r.links.size() != reference.links.size() || !std::equal(shared.begin(), shared.end(), r.links.begin() + 1) ||
        r.links.back() != reference.links.back())
      return "the route from " + worker.host->get_name() + " is not its NIC, the shared links and the server's NIC";
    worker_links.push_back(r.links.front());
  }
  for (const ServerNode& server : farm.servers) {
    const Route r = route(farm.workers[0].host, server.host);
    if (r.links.size() != reference.links.size() || !std::equal(shared.begin(), shared.end(), r.links.begin() + 1) ||
        r.links.front() != reference.links.front())
      return "the route to " + server.name + " is not a worker's NIC, the shared links and its NIC";
    server_links.push_back(r.links.back());
  }
  std::set<const sg4::Link*> used(shared.begin(), shared.end());
  if (used.size() != shared.size()) return "a shared link is twice on the upload route";
  for (const auto* links : {&worker_links, &server_links})
    for (const sg4::Link* link : *links)
      if (!used.insert(link).second)
        return "link " + link->get_name() + " serves two upload routes' ends, or is shared";
  for (const sg4::Link* link : used) {
    if (link->get_sharing_policy() != sg4::Link::SharingPolicy::SHARED)
      return "link " + link->get_name() + " is not a shared (split-duplex) link";
    if (!link->is_on()) return "link " + link->get_name() + " is off";
  }
  // The answers (and failure notices) go from the servers to the workers' hosts: other directions.
  for (const WorkerNode& worker : farm.workers)
    for (const sg4::Link* link : route(farm.servers[0].host, worker.host).links)
      if (used.count(link)) return "answers cross link " + link->get_name() + ", which uploads cross";
  for (const ServerNode& server : farm.servers)
    for (const sg4::Link* link : route(server.host, farm.workers[0].host).links)
      if (used.count(link)) return "answers cross link " + link->get_name() + ", which uploads cross";

  // Route classes: one per kind of worker NIC and kind of server NIC (latency, bandwidth), from a
  // route between a worker and a server of those kinds.
  auto kinds = [](const std::vector<const sg4::Link*>& links, std::vector<int>& kind_of,
                  std::vector<std::size_t>& example) {
    std::map<std::pair<double, double>, int> kind;
    for (std::size_t i = 0; i < links.size(); ++i) {
      const auto [it, added] =
          kind.try_emplace({links[i]->get_latency(), links[i]->get_bandwidth()}, static_cast<int>(kind.size()));
      if (added) example.push_back(i);
      kind_of.push_back(it->second);
    }
  };
  std::vector<std::size_t> worker_example, server_example;
  kinds(worker_links, worker_kind_, worker_example);
  kinds(server_links, server_kind_, server_example);
  std::vector<network::RouteClass> classes;
  route_class_.assign(worker_example.size(), std::vector<int>(server_example.size()));
  for (std::size_t w = 0; w < worker_example.size(); ++w)
    for (std::size_t s = 0; s < server_example.size(); ++s) {
      route_class_[w][s] = static_cast<int>(classes.size());
      classes.push_back(route_class(route(farm.workers[worker_example[w]].host, farm.servers[server_example[s]].host)));
    }

  double shared_Bps = shared.front()->get_bandwidth();
  for (const sg4::Link* link : shared) shared_Bps = std::min(shared_Bps, link->get_bandwidth());
  std::vector<double> private_Bps;
  for (std::size_t w = 0; w < farm.workers.size(); ++w) {
    private_Bps.push_back(worker_links[w]->get_bandwidth());
    worker_of_[farm.workers[w].host] = static_cast<int>(w);
  }
  for (const sg4::Link* link : server_links) private_Bps.push_back(link->get_bandwidth());
  sharing_.emplace(shared_Bps, std::move(private_Bps), std::move(classes),
                   config::get_value<double>("network/bandwidth-factor"), config::get_value<double>("maxmin/precision"),
                   config::get_value<double>("surf/precision"));
  shared_links_.assign(shared.begin(), shared.end());
  return "";
}

void UploadFastPath::start(InFlightRequest* request, const sg4::Host* from) {
  for (const sg4::Link* link : shared_links_)
    if (link->is_used())
      throw std::logic_error("sonicsim internal error: a SimGrid transfer crosses " + link->get_name() +
                             ", whose uploads the upload fast path serves; please report it with the scenario");
  const int worker = worker_of_.at(from);
  const int server = request->record.server;
  const int c = route_class_[static_cast<std::size_t>(worker_kind_[static_cast<std::size_t>(worker)])]
                            [static_cast<std::size_t>(server_kind_[static_cast<std::size_t>(server)])];
  // SimGrid transfers whole bytes (Comm::sendto_async takes an integer size).
  const double bytes = static_cast<double>(static_cast<std::uint64_t>(request->record.input_bytes));
  const int u =
      sharing_->start(sg4::Engine::get_clock(), c, worker, static_cast<int>(worker_of_.size()) + server, bytes);
  if (static_cast<std::size_t>(u) >= uploading_.size()) uploading_.resize(static_cast<std::size_t>(u) + 1, nullptr);
  uploading_[static_cast<std::size_t>(u)] = request;
  request->fast_upload = u;
  arm();
}

void UploadFastPath::cancel(InFlightRequest* request) {
  if (halted_ || request->fast_upload < 0) return;
  sharing_->cancel(sg4::Engine::get_clock(), request->fast_upload);
  uploading_[static_cast<std::size_t>(request->fast_upload)] = nullptr;
  request->fast_upload = -1;
  arm();
}

void UploadFastPath::halt() {
  halted_ = true;
  if (timer_) timer_->remove();
  timer_ = nullptr;
}

// One kernel timer at the clock's next event (sim/simulated_time.hpp).
void UploadFastPath::arm() {
  if (halted_) return;
  const double next = sharing_->next_event_s();
  if (next == armed_at_ && timer_) return;
  if (timer_) timer_->remove();
  timer_ = nullptr;
  armed_at_ = next;
  if (next < std::numeric_limits<double>::infinity())
    timer_ = simgrid::kernel::timer::Timer::set(next, [this] { fire(); });
}

// In maestro, at the clock's next event: uploads that end reach their servers, in the order they
// started.
void UploadFastPath::fire() {
  timer_ = nullptr;  // SimGrid deletes it once this returns
  if (halted_) return;
  end_due_uploads();
}

void UploadFastPath::end_due_uploads() {
  if (timer_) timer_->remove();  // reached before its date, or at it before it fires
  timer_ = nullptr;
  ended_.clear();
  sharing_->advance(sg4::Engine::get_clock(), ended_);
  for (const network::UploadSharing::Upload u : ended_) {
    InFlightRequest* request = uploading_[static_cast<std::size_t>(u)];
    uploading_[static_cast<std::size_t>(u)] = nullptr;
    request->fast_upload = -1;
    if (request->upload_watcher) request->upload_watcher->upload_ended(request);
    deliver_(request);
  }
  arm();
}

}  // namespace sonicsim::sim
