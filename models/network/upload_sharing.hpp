#pragma once
// Uploads that share one bottleneck, as exact processor sharing: the rates SimGrid 3.32's CM02/LV08
// network models give them (max-min sharing, models/network/max_min.hpp), with each end dated in
// O(log n) instead of re-solving every flow at every start and end.
//
// Every upload crosses the shared links (a site uplink, a WAN: all of them, so the least capacity
// binds) and two private links of its own: its sender's and its receiver's (worker and server NICs).
// A private link is on one side only: it carries either senders' or receivers' uploads.
// It first waits out its latency phase, as SimGrid's transfer does, then shares the links at
// f × min(bound, level / penalty) (f: the bandwidth factor). While no private link binds, every
// upload of one route class shares the one level of the shared links, so they progress at one rate:
// a virtual clock per class (bytes each of them has been served) and a heap of finishing marks
// (virtual bytes at start + size) date every end ("TW(start) + volume = TW(end)"). A private link
// binds when the uploads through it at the shared level would exceed it (a threshold per link,
// watched in a heap); then the few links concerned and the shared links are solved exactly by the
// max-min solver, and the uploads a private link holds back get clocks of their own.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/network/indexed_heap.hpp"
#include "models/network/max_min.hpp"

namespace sonicsim::network {

// What SimGrid makes of an upload's route (src/surf/network_cm02.cpp, NetworkCm02Model::communicate).
struct RouteClass {
  double penalty_s = 1;  // the lmm variable's sharing penalty: the route's latency (+ LV08's weight-S terms)
  double bound_Bps = 0;  // the variable's bound: min(slowest link, TCP-gamma / (2 × latency)); <= 0: none
  double latency_s = 0;  // the latency phase: route latency × latency factor
};

class UploadSharing {
 public:
  using Upload = int;

  // `shared_Bps`: capacity of the links every upload crosses (their least); `private_Bps`: each
  // private link's; `bandwidth_factor`: SimGrid's network/bandwidth-factor; `precision`: its
  // maxmin/precision; `timing_precision_s`: its surf/precision (see advance()).
  UploadSharing(double shared_Bps, std::vector<double> private_Bps, std::vector<RouteClass> classes,
                double bandwidth_factor, double precision = 1e-5, double timing_precision_s = 0);

  // An upload of `bytes` starts at `now` on a route of `route_class`, through the private links
  // `sender` and `receiver`; it shares the links from now + its latency phase on.
  Upload start(double now, int route_class, int sender, int receiver, double bytes);
  // The upload stops where it is; no end is reported for it.
  void cancel(double now, Upload upload);
  // When the next upload enters its transfer phase or ends; +inf if none is under way.
  double next_event_s() const;
  // Moves the clock to `now` and appends the uploads that ended, in the order they started. An
  // upload due less than timing_precision_s after `now` ends (or enters its transfer phase) now, as
  // SimGrid's Lazy network model finishes every action whose date lies within surf/precision of
  // the date the engine reaches (network_cm02.cpp, NetworkCm02Model::update_actions_state_lazy,
  // double_equals(top_date, now, precision)). `now` is at most next_event_s().
  void advance(double now, std::vector<Upload>& ended);
  // Whether advance(now) has something to do: an end or an entry due before now + timing_precision_s.
  bool due(double now) const { return reached(next_event_s(), now); }

  std::size_t uploads() const { return uploads_; }
  // An upload's rate now (B/s, the bandwidth factor applied); 0 in its latency phase.
  double rate_Bps(Upload upload) const;

 private:
  struct UploadState {
    int route_class = 0;
    int links[2] = {-1, -1};  // sender's, receiver's
    int link_slot[2] = {-1, -1};
    double bytes = 0;
    std::uint64_t order = 0;  // start order
    int group = -1;           // -1: in its latency phase (or a free slot)
    bool in_use = false;
  };
  // Uploads of one class held at one level by one link (-1: the shared links): one rate.
  struct Group {
    int route_class = 0;
    int link = -1;
    double served = 0;  // virtual bytes: what each member has been served since the group's origin
    double since = 0;   // when `served` was last brought up to date
    double rate = 0;    // B/s per member
    IndexedHeap marks;
    explicit Group(std::vector<int>* positions) : marks(positions) {}
  };
  struct Link {
    double capacity_Bps = 0;
    std::vector<int> uploads;         // in their transfer phase
    std::vector<double> class_count;  // of those, per route class
    bool candidate = false;           // in the exact solve of the last allocation
    std::vector<int> unit_group;      // per class: the group of its uploads held by this link alone
  };
  static constexpr int kSharedUnit = -1;  // Link::unit_group: the class's shared group

  void bring_groups_to(double now);
  void enter(Upload upload);
  void leave(Upload upload);
  void join(Upload upload, int group, double remaining_bytes);
  void move(Upload upload, int group);
  int shared_group(int route_class);
  int link_group(int route_class, int link);
  void update_threshold(int link);
  void allocate();
  void allocate_exactly(double shared_level, bool all_links);
  double group_end_s(const Group& group) const;
  // Whether a date is reached at `now`: at or before it, or less than timing_precision_ after it.
  bool reached(double date, double now) const { return date <= now || date - now < timing_precision_; }

  double shared_Bps_;
  std::vector<RouteClass> classes_;
  double factor_;
  double timing_precision_;
  std::vector<Link> links_;
  MaxMinSolver solver_;

  std::vector<UploadState> state_;
  std::vector<int> free_;
  std::size_t uploads_ = 0;
  std::uint64_t next_order_ = 0;
  std::vector<int> heap_position_;  // of each upload, in the entry heap or its group's heap
  IndexedHeap entries_;             // uploads in their latency phase, by the date they enter
  std::vector<Group> groups_;
  std::vector<int> shared_groups_;  // per class
  std::unordered_map<std::int64_t, int> link_groups_;
  std::vector<int> busy_groups_;  // groups with members
  std::vector<char> group_busy_;
  std::vector<double> class_count_;  // uploads in their transfer phase, per class
  std::vector<int> threshold_position_;
  IndexedHeap thresholds_;  // links by the shared level above which they would bind
  double now_ = 0;

  // Workspace of an allocation, kept so that allocating allocates nothing once it has grown.
  struct UnitVariable {  // the uploads of one class through one candidate link (and no other)
    int link;
    int route_class;
    int variable;
  };
  std::vector<SharingVariable> variables_;
  std::vector<double> capacities_;
  SharingResult result_;
  std::vector<int> candidates_, previous_candidates_;  // links in the exact solve, now and last time
  std::vector<int> per_upload_;                        // uploads through two candidate links
  std::vector<int> per_upload_group_;                  // their groups
  std::vector<int> per_upload_index_;                  // upload -> its index in per_upload_ (valid where it matches)
  std::vector<int> recheck_;                           // uploads whose group may have changed
  std::vector<int> ending_;
  std::vector<UnitVariable> unit_variables_;
  std::vector<double> alone_;  // per class: uploads through no candidate link
  std::vector<int> class_variable_;
  std::vector<std::size_t> walk_;
  std::vector<int> link_constraint_;  // link -> its constraint index in the exact solve, -1 if none
};

}  // namespace sonicsim::network
