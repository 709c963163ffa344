#include "models/network/upload_sharing.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace sonicsim::network {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A group's virtual clock is moved back to 0 past this many bytes, before its marks lose precision:
// a double holds 2^40 B to 2^-12 B.
constexpr double kRebaseBytes = 1099511627776.0;

}  // namespace

UploadSharing::UploadSharing(double shared_Bps, std::vector<double> private_Bps, std::vector<RouteClass> classes,
                             double bandwidth_factor, double precision, double timing_precision_s)
    : shared_Bps_(shared_Bps),
      classes_(std::move(classes)),
      factor_(bandwidth_factor),
      timing_precision_(timing_precision_s),
      solver_(precision),
      entries_(&heap_position_),
      thresholds_(&threshold_position_) {
  if (!(shared_Bps_ > 0) || !(factor_ > 0))
    throw std::invalid_argument("UploadSharing: capacities and factor must be positive");
  if (!(timing_precision_ >= 0)) throw std::invalid_argument("UploadSharing: timing precision must be >= 0");
  links_.resize(private_Bps.size());
  for (std::size_t l = 0; l < links_.size(); ++l) {
    links_[l].capacity_Bps = private_Bps[l];
    links_[l].class_count.assign(classes_.size(), 0.0);
    links_[l].unit_group.assign(classes_.size(), kSharedUnit);
  }
  threshold_position_.assign(links_.size(), -1);
  link_constraint_.assign(links_.size(), -1);
  shared_groups_.assign(classes_.size(), -1);
  class_count_.assign(classes_.size(), 0.0);
}

UploadSharing::Upload UploadSharing::start(double now, int route_class, int sender, int receiver, double bytes) {
  int u;
  if (free_.empty()) {
    u = static_cast<int>(state_.size());
    state_.emplace_back();
    heap_position_.push_back(-1);
  } else {
    u = free_.back();
    free_.pop_back();
  }
  UploadState& s = state_[static_cast<std::size_t>(u)];
  s = UploadState{};
  s.route_class = route_class;
  s.links[0] = sender;
  s.links[1] = receiver;
  s.bytes = bytes;
  s.order = next_order_++;
  s.in_use = true;
  ++uploads_;
  const double latency = classes_[static_cast<std::size_t>(route_class)].latency_s;
  if (latency > 0) {
    entries_.push(now + latency, s.order, u);
    return u;
  }
  // No latency phase: SimGrid enables the transfer at once (network_cm02.cpp, comm_action_set_variable).
  bring_groups_to(now);
  enter(u);
  allocate();
  return u;
}

void UploadSharing::cancel(double now, Upload u) {
  UploadState& s = state_[static_cast<std::size_t>(u)];
  if (s.group < 0) {
    entries_.remove(u);
  } else {
    bring_groups_to(now);
    leave(u);
    allocate();
  }
  s.in_use = false;
  free_.push_back(u);
  --uploads_;
}

double UploadSharing::group_end_s(const Group& g) const {
  if (g.marks.empty()) return kInfinity;
  const double left = g.marks.top().key - g.served;
  if (left <= 0) return g.since;
  return g.rate > 0 ? g.since + left / g.rate : kInfinity;
}

double UploadSharing::next_event_s() const {
  double next = entries_.empty() ? kInfinity : entries_.top().key;
  for (int g : busy_groups_) next = std::min(next, group_end_s(groups_[static_cast<std::size_t>(g)]));
  return next;
}

void UploadSharing::advance(double now, std::vector<Upload>& ended) {
  ending_.clear();
  for (int g : busy_groups_) {
    Group& group = groups_[static_cast<std::size_t>(g)];
    while (!group.marks.empty() && reached(group_end_s(group), now)) {
      ending_.push_back(group.marks.top().id);
      group.marks.pop();
    }
  }
  const bool entering = !entries_.empty() && reached(entries_.top().key, now);
  if (ending_.empty() && !entering) return;
  bring_groups_to(now);
  for (int u : ending_) leave(u);
  while (!entries_.empty() && reached(entries_.top().key, now)) {
    const int u = entries_.top().id;
    entries_.pop();
    enter(u);
  }
  allocate();
  std::sort(ending_.begin(), ending_.end(), [this](int a, int b) {
    return state_[static_cast<std::size_t>(a)].order < state_[static_cast<std::size_t>(b)].order;
  });
  for (int u : ending_) {
    state_[static_cast<std::size_t>(u)].in_use = false;
    free_.push_back(u);
    --uploads_;
    ended.push_back(u);
  }
}

double UploadSharing::rate_Bps(Upload u) const {
  const UploadState& s = state_[static_cast<std::size_t>(u)];
  return s.group < 0 ? 0.0 : groups_[static_cast<std::size_t>(s.group)].rate;
}

void UploadSharing::bring_groups_to(double now) {
  for (int g : busy_groups_) {
    Group& group = groups_[static_cast<std::size_t>(g)];
    group.served += group.rate * (now - group.since);
    group.since = now;
    if (group.served > kRebaseBytes) {
      group.marks.shift_keys(-group.served);
      group.served = 0;
    }
  }
  now_ = now;
}

// Into its transfer phase: onto its links, and into its class's shared group until allocate() says otherwise.
void UploadSharing::enter(Upload u) {
  UploadState& s = state_[static_cast<std::size_t>(u)];
  const std::size_t c = static_cast<std::size_t>(s.route_class);
  for (int side = 0; side < 2; ++side) {
    const int l = s.links[side];
    if (l < 0) continue;
    Link& link = links_[static_cast<std::size_t>(l)];
    s.link_slot[side] = static_cast<int>(link.uploads.size());
    link.uploads.push_back(u);
    link.class_count[c] += 1;
    update_threshold(l);
  }
  class_count_[c] += 1;
  join(u, shared_group(s.route_class), s.bytes);
  recheck_.push_back(u);
}

void UploadSharing::leave(Upload u) {
  UploadState& s = state_[static_cast<std::size_t>(u)];
  Group& group = groups_[static_cast<std::size_t>(s.group)];
  if (heap_position_[static_cast<std::size_t>(u)] >= 0) group.marks.remove(u);
  s.group = -1;
  const std::size_t c = static_cast<std::size_t>(s.route_class);
  for (int side = 0; side < 2; ++side) {
    const int l = s.links[side];
    if (l < 0) continue;
    Link& link = links_[static_cast<std::size_t>(l)];
    const int slot = s.link_slot[side];
    const int last = link.uploads.back();
    link.uploads[static_cast<std::size_t>(slot)] = last;
    UploadState& moved = state_[static_cast<std::size_t>(last)];
    moved.link_slot[moved.links[0] == l ? 0 : 1] = slot;
    link.uploads.pop_back();
    link.class_count[c] -= 1;
    update_threshold(l);
  }
  class_count_[c] -= 1;
}

void UploadSharing::join(Upload u, int g, double remaining_bytes) {
  Group& group = groups_[static_cast<std::size_t>(g)];
  if (!group_busy_[static_cast<std::size_t>(g)]) {
    group_busy_[static_cast<std::size_t>(g)] = 1;
    busy_groups_.push_back(g);
    group.served = 0;
    group.since = now_;
  }
  UploadState& s = state_[static_cast<std::size_t>(u)];
  s.group = g;
  group.marks.push(group.served + remaining_bytes, s.order, u);
}

void UploadSharing::move(Upload u, int g) {
  UploadState& s = state_[static_cast<std::size_t>(u)];
  Group& from = groups_[static_cast<std::size_t>(s.group)];
  const double remaining =
      from.marks.entries()[static_cast<std::size_t>(heap_position_[static_cast<std::size_t>(u)])].key - from.served;
  from.marks.remove(u);
  join(u, g, remaining);
}

int UploadSharing::shared_group(int route_class) {
  int& g = shared_groups_[static_cast<std::size_t>(route_class)];
  if (g < 0) {
    g = static_cast<int>(groups_.size());
    groups_.emplace_back(&heap_position_);
    groups_.back().route_class = route_class;
    group_busy_.push_back(0);
  }
  return g;
}

int UploadSharing::link_group(int route_class, int link) {
  const std::int64_t key = static_cast<std::int64_t>(link) * static_cast<std::int64_t>(classes_.size()) + route_class;
  const auto [it, inserted] = link_groups_.try_emplace(key, static_cast<int>(groups_.size()));
  if (inserted) {
    groups_.emplace_back(&heap_position_);
    groups_.back().route_class = route_class;
    groups_.back().link = link;
    group_busy_.push_back(0);
  }
  return it->second;
}

// The shared level above which the link would bind: its own saturation level with every upload
// through it at a common level (bounds included); +inf if they all reach their bounds first.
void UploadSharing::update_threshold(int l) {
  Link& link = links_[static_cast<std::size_t>(l)];
  double threshold = kInfinity;
  if (!link.uploads.empty()) {
    double demand = 0;
    for (std::size_t c = 0; c < classes_.size(); ++c)
      if (link.class_count[c] > 0)
        demand += classes_[c].bound_Bps > 0 ? link.class_count[c] * classes_[c].bound_Bps : kInfinity;
    if (!(demand < link.capacity_Bps)) {
      variables_.clear();
      for (std::size_t c = 0; c < classes_.size(); ++c)
        if (link.class_count[c] > 0)
          variables_.push_back({classes_[c].penalty_s, classes_[c].bound_Bps, link.class_count[c], {0, -1, -1}});
      capacities_.assign(1, link.capacity_Bps);
      solver_.solve(capacities_, variables_, result_);
      threshold = result_.level[0];
      // The link left the filling with uploads unfixed (SimGrid's tolerance): always solve it exactly.
      if (std::find(result_.fixed_by.begin(), result_.fixed_by.end(), SharingResult::kUnfixed) !=
          result_.fixed_by.end())
        threshold = 0;
    }
  }
  const bool in_heap = threshold_position_[static_cast<std::size_t>(l)] >= 0;
  if (threshold == kInfinity) {
    if (in_heap) thresholds_.remove(l);
  } else if (in_heap) {
    thresholds_.update(l, threshold);
  } else {
    thresholds_.push(threshold, static_cast<std::uint64_t>(l), l);
  }
}

// The rates after a start or an end. The shared links alone first, every upload of a class at one
// level; the links whose thresholds lie below that level could bind, and are solved exactly.
void UploadSharing::allocate() {
  variables_.clear();
  for (std::size_t c = 0; c < classes_.size(); ++c)
    if (class_count_[c] > 0)
      variables_.push_back({classes_[c].penalty_s, classes_[c].bound_Bps, class_count_[c], {0, -1, -1}});
  capacities_.assign(1, shared_Bps_);
  solver_.solve(capacities_, variables_, result_);
  const bool stuck =
      std::find(result_.fixed_by.begin(), result_.fixed_by.end(), SharingResult::kUnfixed) != result_.fixed_by.end();
  const double shared_level = result_.level[0];
  const bool may_bind = stuck || (!thresholds_.empty() && thresholds_.top().key < shared_level);
  if (may_bind || !previous_candidates_.empty()) return allocate_exactly(shared_level, stuck);
  std::size_t v = 0;
  for (std::size_t c = 0; c < classes_.size(); ++c)
    if (class_count_[c] > 0)
      groups_[static_cast<std::size_t>(shared_group(static_cast<int>(c)))].rate = factor_ * result_.value_Bps[v++];
  recheck_.clear();  // entered into their shared groups, where they belong
  std::erase_if(busy_groups_, [this](int g) {
    if (!groups_[static_cast<std::size_t>(g)].marks.empty()) return false;
    group_busy_[static_cast<std::size_t>(g)] = 0;
    return true;
  });
}

}  // namespace sonicsim::network
