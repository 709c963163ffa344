#include "sim/control/proxy.hpp"

#include <cmath>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

Proxy::Proxy(const ProxySpec& spec, sg4::Host* host, RequestBalancer& balancer, Recorder& recorder)
    : spec_(spec), host_(host), balancer_(balancer), recorder_(recorder), responses_(sg4::Mailbox::by_name("proxy")) {
  if (spec.connection_limit) connection_tokens_.emplace(*spec.connection_limit);
}

bool Proxy::accept_connection() {
  if (!connection_tokens_) return true;
  const bool accepted = connection_tokens_->take(sg4::Engine::get_clock());
  recorder_.connection_opened(!accepted);
  return accepted;
}

void Proxy::start() {
  sg4::ActorPtr relaying = sg4::Actor::create("proxy/relay", host_, [this] { relay(); });
  relaying->daemonize();
  // Responses flow to the proxy as soon as servers send them, as over an open HTTP/2 connection.
  responses_->set_receiver(relaying);
}

// A response leaves the proxy the moment it has fully arrived: the per-request CPU time is charged
// on the request's way in (a simplification; Envoy streams both ways).
void Proxy::relay() {
  for (;;) {
    auto* request = responses_->get<InFlightRequest>();
    balancer_.answered(request->record.server);
    const bool completed = request->record.status == RequestStatus::Completed;
    const double bytes = completed ? request->record.output_bytes : 0;
    request->client_inbox->put_init(request, static_cast<std::uint64_t>(bytes))->detach();
  }
}

void Proxy::membership_changed(int server, bool up) {
  const double now = sg4::Engine::get_clock();
  const double refresh = (std::floor(now / spec_.dns_refresh_s) + 1) * spec_.dns_refresh_s;
  changes_.push_back({refresh, server, up});  // two changes before one refresh: the refresh sees the last
}

void Proxy::resolve() {
  const double now = sg4::Engine::get_clock();
  while (!changes_.empty() && changes_.front().resolved_at <= now) {
    balancer_.set_ready(changes_.front().server, changes_.front().up);
    changes_.pop_front();
  }
}

double Proxy::latency_to(sg4::Host* client) {
  auto [it, inserted] = latency_.try_emplace(client, 0.0);
  if (inserted) {
    std::vector<sg4::Link*> links;
    host_->route_to(client, links, &it->second);
  }
  return it->second;
}

}  // namespace sonicsim::sim
