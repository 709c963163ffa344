#pragma once
// An Envoy proxy between the jobs and the servers (docs/reference/supersonic.md §1.3, §2): it balances
// each request over the servers it believes ready, and relays every response. What it believes
// lags behind the servers: it learns of a failure or a restart at its next DNS refresh (STRICT_DNS
// re-resolves every dns_refresh from its start), and a request it sends to a dead server fails
// after the connect timeout.
//
// The request path is driven by the sending job (the upload to the proxy, the proxy's CPU time, the
// upload to the server); the responses are relayed by the proxy's own actor.
#include <deque>
#include <map>
#include <optional>

#include <simgrid/s4u.hpp>

#include "models/control/request_balancer.hpp"
#include "models/control/token_bucket.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/recorder.hpp"

namespace sonicsim::sim {

class Proxy {
 public:
  Proxy(const ProxySpec& spec, simgrid::s4u::Host* host, RequestBalancer& balancer, Recorder& recorder);

  // Creates the relaying actor. Call once, before the simulation runs.
  void start();

  const ProxySpec& spec() const { return spec_; }
  simgrid::s4u::Host* host() const { return host_; }
  // Where the servers send their answers.
  simgrid::s4u::Mailbox* responses() const { return responses_; }
  // The proxy's view of `server` is refreshed at its next DNS resolution after now.
  void membership_changed(int server, bool up);
  // Brings the balancer's view up to the last DNS resolution: call before it picks a server.
  void resolve();
  // A job opens its connection now: whether the listener's token bucket lets it in (always, without one).
  bool accept_connection();
  // One-way latency from the proxy to `client`: how long a locally generated error takes to arrive.
  double latency_to(simgrid::s4u::Host* client);

 private:
  void relay();

  ProxySpec spec_;
  simgrid::s4u::Host* host_;
  RequestBalancer& balancer_;
  Recorder& recorder_;
  simgrid::s4u::Mailbox* responses_;
  std::map<simgrid::s4u::Host*, double> latency_;
  std::optional<TokenBucket> connection_tokens_;
  // Changes not yet resolved, in time order: (resolution time, server, up). Resolved when the proxy
  // next picks a server, rather than by timers, which would keep the simulation running past its jobs.
  struct Change {
    double resolved_at;
    int server;
    bool up;
  };
  std::deque<Change> changes_;
};

}  // namespace sonicsim::sim
