#include "models/network/upload_sharing.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace sonicsim::network {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kSharedUnit = -1;  // Link::unit_group: the class's shared group
// A group's virtual clock is moved back to 0 past this many bytes, before its marks lose precision:
// a double holds 2^40 B to 2^-12 B.
constexpr double kRebaseBytes = 1099511627776.0;

}  // namespace

UploadSharing::UploadSharing(double shared_Bps, std::vector<double> private_Bps, std::vector<RouteClass> classes,
                             double bandwidth_factor, double precision)
    : shared_Bps_(shared_Bps),
      classes_(std::move(classes)),
      factor_(bandwidth_factor),
      solver_(precision),
      entries_(&heap_position_),
      thresholds_(&threshold_position_) {
  if (!(shared_Bps_ > 0) || !(factor_ > 0)) throw std::invalid_argument("UploadSharing: capacities and factor must be positive");
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
    while (!group.marks.empty() && group_end_s(group) <= now) {
      ending_.push_back(group.marks.top().id);
      group.marks.pop();
    }
  }
  const bool entering = !entries_.empty() && entries_.top().key <= now;
  if (ending_.empty() && !entering) return;
  bring_groups_to(now);
  for (int u : ending_) leave(u);
  while (!entries_.empty() && entries_.top().key <= now) {
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
  const double remaining = from.marks.entries()[static_cast<std::size_t>(heap_position_[static_cast<std::size_t>(u)])].key - from.served;
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
      if (std::find(result_.fixed_by.begin(), result_.fixed_by.end(), SharingResult::kUnfixed) != result_.fixed_by.end())
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
    if (class_count_[c] > 0) variables_.push_back({classes_[c].penalty_s, classes_[c].bound_Bps, class_count_[c], {0, -1, -1}});
  capacities_.assign(1, shared_Bps_);
  solver_.solve(capacities_, variables_, result_);
  const bool stuck = std::find(result_.fixed_by.begin(), result_.fixed_by.end(), SharingResult::kUnfixed) != result_.fixed_by.end();
  const double shared_level = result_.level[0];
  const bool may_bind = stuck || (!thresholds_.empty() && thresholds_.top().key < shared_level);
  if (may_bind || !previous_candidates_.empty()) return allocate_exactly(shared_level, stuck);
  std::size_t v = 0;
  for (std::size_t c = 0; c < classes_.size(); ++c)
    if (class_count_[c] > 0) groups_[static_cast<std::size_t>(shared_group(static_cast<int>(c)))].rate = factor_ * result_.value_Bps[v++];
  recheck_.clear();  // entered into their shared groups, where they belong
  std::erase_if(busy_groups_, [this](int g) {
    if (!groups_[static_cast<std::size_t>(g)].marks.empty()) return false;
    group_busy_[static_cast<std::size_t>(g)] = 0;
    return true;
  });
}

// The shared links and the links that could bind, solved together: uploads through one such link
// in aggregate per class, uploads through two one by one, the others per class.
void UploadSharing::allocate_exactly(double shared_level, bool all_links) {
  for (int l : candidates_) links_[static_cast<std::size_t>(l)].candidate = false;
  candidates_.clear();
  auto add_candidates_below = [&](double level) {
    bool added = false;
    if (all_links) {
      for (std::size_t l = 0; l < links_.size(); ++l)
        if (!links_[l].uploads.empty() && !links_[l].candidate) {
          links_[l].candidate = true;
          candidates_.push_back(static_cast<int>(l));
          added = true;
        }
      return added;
    }
    // The heap's entries below `level`: a walk that stops at every entry at or above it.
    std::vector<std::size_t>& stack = walk_;
    stack.assign(1, 0);
    const auto& entries = thresholds_.entries();
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      if (i >= entries.size() || !(entries[i].key < level)) continue;
      Link& link = links_[static_cast<std::size_t>(entries[i].id)];
      if (!link.candidate) {
        link.candidate = true;
        candidates_.push_back(entries[i].id);
        added = true;
      }
      stack.push_back(2 * i + 1);
      stack.push_back(2 * i + 2);
    }
    return added;
  };
  add_candidates_below(shared_level);

  std::vector<int>& class_variable = class_variable_;
  class_variable.assign(classes_.size(), -1);
  per_upload_index_.resize(state_.size(), -1);
  for (;;) {
    // Uploads through two candidate links, found from the side holding fewer uploads.
    per_upload_.clear();
    std::size_t on_side[2] = {0, 0};
    for (int l : candidates_) {
      const Link& link = links_[static_cast<std::size_t>(l)];
      if (link.uploads.empty()) continue;
      const UploadState& any = state_[static_cast<std::size_t>(link.uploads.front())];
      on_side[any.links[0] == l ? 0 : 1] += link.uploads.size();
    }
    const int scan_side = on_side[0] <= on_side[1] ? 0 : 1;
    for (int l : candidates_) {
      for (int u : links_[static_cast<std::size_t>(l)].uploads) {
        const UploadState& s = state_[static_cast<std::size_t>(u)];
        if (s.links[scan_side] != l) break;  // a link serves one side only
        const int other = s.links[1 - scan_side];
        if (other >= 0 && links_[static_cast<std::size_t>(other)].candidate) {
          per_upload_index_[static_cast<std::size_t>(u)] = static_cast<int>(per_upload_.size());
          per_upload_.push_back(u);
        }
      }
    }
    // The system: constraint 0 the shared links, then each candidate link.
    capacities_.assign(1, shared_Bps_);
    for (int l : candidates_) {
      link_constraint_[static_cast<std::size_t>(l)] = static_cast<int>(capacities_.size());
      capacities_.push_back(links_[static_cast<std::size_t>(l)].capacity_Bps);
    }
    std::vector<double>& alone = alone_;
    alone = class_count_;
    for (int l : candidates_)
      for (std::size_t c = 0; c < classes_.size(); ++c) alone[c] -= links_[static_cast<std::size_t>(l)].class_count[c];
    for (int u : per_upload_) alone[static_cast<std::size_t>(state_[static_cast<std::size_t>(u)].route_class)] += 1;
    variables_.clear();
    for (std::size_t c = 0; c < classes_.size(); ++c) {
      class_variable[c] = -1;
      if (alone[c] > 0.5) {
        class_variable[c] = static_cast<int>(variables_.size());
        variables_.push_back({classes_[c].penalty_s, classes_[c].bound_Bps, alone[c], {0, -1, -1}});
      }
    }
    unit_variables_.clear();
    for (int l : candidates_) {
      const Link& link = links_[static_cast<std::size_t>(l)];
      for (std::size_t c = 0; c < classes_.size(); ++c) {
        double count = link.class_count[c];
        for (int u : per_upload_) {
          const UploadState& s = state_[static_cast<std::size_t>(u)];
          if (static_cast<std::size_t>(s.route_class) == c && (s.links[0] == l || s.links[1] == l)) count -= 1;
        }
        if (count > 0.5) {
          unit_variables_.push_back({l, static_cast<int>(c), static_cast<int>(variables_.size())});
          variables_.push_back({classes_[c].penalty_s, classes_[c].bound_Bps, count,
                                {0, link_constraint_[static_cast<std::size_t>(l)], -1}});
        }
      }
    }
    const std::size_t first_per_upload = variables_.size();
    for (int u : per_upload_) {
      const UploadState& s = state_[static_cast<std::size_t>(u)];
      const RouteClass& rc = classes_[static_cast<std::size_t>(s.route_class)];
      variables_.push_back({rc.penalty_s, rc.bound_Bps, 1.0,
                            {0, link_constraint_[static_cast<std::size_t>(s.links[0])],
                             link_constraint_[static_cast<std::size_t>(s.links[1])]}});
    }
    solver_.solve(capacities_, variables_, result_);
    const bool stuck = std::find(result_.fixed_by.begin(), result_.fixed_by.end(), SharingResult::kUnfixed) != result_.fixed_by.end();
    if (stuck && !all_links) {
      all_links = true;
      add_candidates_below(kInfinity);
      continue;
    }
    if (all_links || !add_candidates_below(result_.level[0])) {
      // Rates: a group per (class, link that fixed it); uploads at their bound or fixed by the
      // shared links go to the class's shared group, whose rate they all have.
      for (int g : busy_groups_) groups_[static_cast<std::size_t>(g)].rate = 0;
      auto group_of = [&](std::size_t v, int route_class) {
        const int by = result_.fixed_by[v];
        if (by <= 0) return shared_group(route_class);  // the shared links, its bound, or (never) unfixed
        return link_group(route_class, candidates_[static_cast<std::size_t>(by - 1)]);
      };
      auto set_rate = [&](int g, std::size_t v) {
        groups_[static_cast<std::size_t>(g)].rate = factor_ * result_.value_Bps[v];
      };
      for (std::size_t c = 0; c < classes_.size(); ++c)
        if (class_variable[c] >= 0) set_rate(shared_group(static_cast<int>(c)), static_cast<std::size_t>(class_variable[c]));
      // Links that left the exact solve: their uploads are back in their classes' shared groups.
      for (int l : previous_candidates_) {
        Link& link = links_[static_cast<std::size_t>(l)];
        if (link.candidate) continue;
        link_constraint_[static_cast<std::size_t>(l)] = -1;
        std::fill(link.unit_group.begin(), link.unit_group.end(), kSharedUnit);
        recheck_.insert(recheck_.end(), link.uploads.begin(), link.uploads.end());
      }
      for (const UnitVariable& unit : unit_variables_) {
        const int g = group_of(static_cast<std::size_t>(unit.variable), unit.route_class);
        set_rate(g, static_cast<std::size_t>(unit.variable));
        Link& link = links_[static_cast<std::size_t>(unit.link)];
        const int target = g == shared_group(unit.route_class) ? kSharedUnit : g;
        if (link.unit_group[static_cast<std::size_t>(unit.route_class)] != target) {
          link.unit_group[static_cast<std::size_t>(unit.route_class)] = target;
          for (int u : link.uploads)
            if (state_[static_cast<std::size_t>(u)].route_class == unit.route_class) recheck_.push_back(u);
        }
      }
      // Links new to the exact solve: every upload through them may change group.
      for (int l : candidates_)
        if (std::find(previous_candidates_.begin(), previous_candidates_.end(), l) == previous_candidates_.end()) {
          const Link& link = links_[static_cast<std::size_t>(l)];
          recheck_.insert(recheck_.end(), link.uploads.begin(), link.uploads.end());
        }
      per_upload_group_.clear();
      for (std::size_t i = 0; i < per_upload_.size(); ++i) {
        const int u = per_upload_[i];
        const int g = group_of(first_per_upload + i, state_[static_cast<std::size_t>(u)].route_class);
        set_rate(g, first_per_upload + i);
        per_upload_group_.push_back(g);
        recheck_.push_back(u);
      }
      break;
    }
  }
  // Each upload to recheck goes where its links put it.
  for (int u : recheck_) {
    const UploadState& s = state_[static_cast<std::size_t>(u)];
    if (!s.in_use || s.group < 0) continue;
    const bool on[2] = {s.links[0] >= 0 && links_[static_cast<std::size_t>(s.links[0])].candidate,
                        s.links[1] >= 0 && links_[static_cast<std::size_t>(s.links[1])].candidate};
    int target;
    if (on[0] && on[1]) {
      target = per_upload_group_[static_cast<std::size_t>(per_upload_index_[static_cast<std::size_t>(u)])];
    } else if (on[0] || on[1]) {
      const int unit = links_[static_cast<std::size_t>(s.links[on[0] ? 0 : 1])].unit_group[static_cast<std::size_t>(s.route_class)];
      target = unit == kSharedUnit ? shared_group(s.route_class) : unit;
    } else {
      target = shared_group(s.route_class);
    }
    if (s.group != target) move(u, target);
  }
  recheck_.clear();
  previous_candidates_ = candidates_;
  std::erase_if(busy_groups_, [this](int g) {
    if (!groups_[static_cast<std::size_t>(g)].marks.empty()) return false;
    group_busy_[static_cast<std::size_t>(g)] = 0;
    return true;
  });
}

}  // namespace sonicsim::network
