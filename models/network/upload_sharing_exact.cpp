// UploadSharing's exact solve where a worker or server NIC could bind (upload_sharing.hpp): the
// shared links and those NICs, by max_min.hpp's solver, and the groups the uploads move between.
#include "models/network/upload_sharing.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace sonicsim::network {
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
          variables_.push_back({classes_[c].penalty_s,
                                classes_[c].bound_Bps,
                                count,
                                {0, link_constraint_[static_cast<std::size_t>(l)], -1}});
        }
      }
    }
    const std::size_t first_per_upload = variables_.size();
    for (int u : per_upload_) {
      const UploadState& s = state_[static_cast<std::size_t>(u)];
      const RouteClass& rc = classes_[static_cast<std::size_t>(s.route_class)];
      variables_.push_back({rc.penalty_s,
                            rc.bound_Bps,
                            1.0,
                            {0, link_constraint_[static_cast<std::size_t>(s.links[0])],
                             link_constraint_[static_cast<std::size_t>(s.links[1])]}});
    }
    solver_.solve(capacities_, variables_, result_);
    const bool stuck =
        std::find(result_.fixed_by.begin(), result_.fixed_by.end(), SharingResult::kUnfixed) != result_.fixed_by.end();
    if (stuck && !all_links) {
      all_links = true;
      add_candidates_below(std::numeric_limits<double>::infinity());
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
        if (class_variable[c] >= 0)
          set_rate(shared_group(static_cast<int>(c)), static_cast<std::size_t>(class_variable[c]));
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
      const int unit =
          links_[static_cast<std::size_t>(s.links[on[0] ? 0 : 1])].unit_group[static_cast<std::size_t>(s.route_class)];
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
