#pragma once
// The plain way to compute what UploadSharing computes, for its tests: every upload keeps its
// remaining bytes; at every start, entry and end the whole system (the shared links and every
// private link) is solved again and every upload advanced. O(n) per event, obviously right.
#include <algorithm>
#include <limits>
#include <vector>

#include "models/network/max_min.hpp"
#include "models/network/upload_sharing.hpp"

namespace sonicsim::network::fluid_reference {

struct TraceUpload {
  double start_s;
  int route_class;
  int sender;
  int receiver;
  double bytes;
  double cancel_s = std::numeric_limits<double>::infinity();  // stopped then, if still under way
};

struct TraceLinks {
  double shared_Bps;
  std::vector<double> private_Bps;
  std::vector<RouteClass> classes;
  double factor = 1;
};

inline constexpr double kNever = std::numeric_limits<double>::infinity();

// Each upload's end date (kNever if cancelled first).
inline std::vector<double> reference_ends(const TraceLinks& links, const std::vector<TraceUpload>& trace) {
  const std::size_t n = trace.size();
  std::vector<double> end(n, kNever), remaining(n);
  std::vector<char> active(n, 0), done(n, 0);
  for (std::size_t i = 0; i < n; ++i) remaining[i] = trace[i].bytes;
  MaxMinSolver solver;
  SharingResult result;
  std::vector<double> capacity{links.shared_Bps};
  capacity.insert(capacity.end(), links.private_Bps.begin(), links.private_Bps.end());
  std::vector<double> rate(n, 0.0);
  double t = 0;
  for (;;) {
    std::vector<SharingVariable> variables;
    std::vector<std::size_t> who;
    for (std::size_t i = 0; i < n; ++i)
      if (active[i]) {
        const RouteClass& c = links.classes[static_cast<std::size_t>(trace[i].route_class)];
        variables.push_back({c.penalty_s, c.bound_Bps, 1.0, {0, 1 + trace[i].sender, 1 + trace[i].receiver}});
        who.push_back(i);
      }
    solver.solve(capacity, variables, result);
    std::fill(rate.begin(), rate.end(), 0.0);
    for (std::size_t k = 0; k < who.size(); ++k) rate[who[k]] = links.factor * result.value_Bps[k];
    // The next event: an end, an entry (start + latency phase) or a cancellation.
    double next = kNever;
    for (std::size_t i = 0; i < n; ++i) {
      if (done[i]) continue;
      const double enter = trace[i].start_s + links.classes[static_cast<std::size_t>(trace[i].route_class)].latency_s;
      if (!active[i]) next = std::min(next, enter);
      if (active[i] && rate[i] > 0) next = std::min(next, t + remaining[i] / rate[i]);
      next = std::min(next, trace[i].cancel_s);
    }
    if (next == kNever) break;
    for (std::size_t i = 0; i < n; ++i) {
      if (!active[i]) continue;
      const double end_s = rate[i] > 0 ? t + remaining[i] / rate[i] : kNever;
      remaining[i] -= rate[i] * (next - t);
      if (end_s <= next) {
        active[i] = 0;
        done[i] = 1;
        end[i] = next;
      }
    }
    t = next;
    for (std::size_t i = 0; i < n; ++i) {
      if (done[i]) continue;
      if (trace[i].cancel_s <= t) {
        active[i] = 0;
        done[i] = 1;
        continue;
      }
      const double enter = trace[i].start_s + links.classes[static_cast<std::size_t>(trace[i].route_class)].latency_s;
      if (!active[i] && enter <= t) active[i] = 1;
    }
  }
  return end;
}

// The same trace through UploadSharing, driven as a simulation drives it: starts and cancellations
// at their dates, advance() at every date next_event_s() names.
inline std::vector<double> sharing_ends(const TraceLinks& links, const std::vector<TraceUpload>& trace) {
  UploadSharing sharing(links.shared_Bps, links.private_Bps, links.classes, links.factor);
  std::vector<double> end(trace.size(), kNever);
  std::vector<int> handle(trace.size(), -1);
  std::vector<int> owner;  // handle -> trace index (handles are reused)
  std::vector<UploadSharing::Upload> ended;
  struct Action {
    double at;
    bool cancel;
    std::size_t upload;
  };
  std::vector<Action> actions;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    actions.push_back({trace[i].start_s, false, i});
    if (trace[i].cancel_s < kNever) actions.push_back({trace[i].cancel_s, true, i});
  }
  std::stable_sort(actions.begin(), actions.end(), [](const Action& a, const Action& b) { return a.at < b.at; });
  auto run_until = [&](double until, bool inclusive) {
    for (;;) {
      const double next = sharing.next_event_s();
      if (!(inclusive ? next <= until : next < until)) return;
      ended.clear();
      sharing.advance(next, ended);
      for (UploadSharing::Upload u : ended) {
        end[static_cast<std::size_t>(owner[static_cast<std::size_t>(u)])] = next;
        handle[static_cast<std::size_t>(owner[static_cast<std::size_t>(u)])] = -1;
      }
    }
  };
  for (const Action& a : actions) {
    run_until(a.at, a.cancel);  // ends at a cancellation's date come first
    const TraceUpload& u = trace[a.upload];
    if (a.cancel) {
      if (handle[a.upload] >= 0) sharing.cancel(a.at, handle[a.upload]);
      handle[a.upload] = -1;
      continue;
    }
    const int h = sharing.start(a.at, u.route_class, u.sender, u.receiver, u.bytes);
    if (static_cast<std::size_t>(h) >= owner.size()) owner.resize(static_cast<std::size_t>(h) + 1);
    owner[static_cast<std::size_t>(h)] = static_cast<int>(a.upload);
    handle[a.upload] = h;
  }
  run_until(kNever, false);
  return end;
}

}  // namespace sonicsim::network::fluid_reference
