#pragma once
// A binary min-heap of ids (small non-negative integers) whose positions are kept in a vector the
// caller shares between heaps that never hold the same id at once: an id is removed or re-keyed in
// O(log n). Equal keys come out in the order of their tie-breaking sequence numbers, so that the
// order never depends on the heap's layout.
#include <cstdint>
#include <utility>
#include <vector>

namespace sonicsim::network {

class IndexedHeap {
 public:
  struct Entry {
    double key;
    std::uint64_t tie;  // among equal keys, the smaller comes first
    int id;
  };

  // `positions[id]` is kept up to date for every id in the heap (-1 when the heap removes it).
  explicit IndexedHeap(std::vector<int>* positions) : positions_(positions) {}

  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  const Entry& top() const { return entries_.front(); }
  const std::vector<Entry>& entries() const { return entries_; }

  void push(double key, std::uint64_t tie, int id) {
    entries_.push_back({key, tie, id});
    place(entries_.size() - 1);
    sift_up(entries_.size() - 1);
  }
  void remove(int id) {
    const std::size_t at = static_cast<std::size_t>((*positions_)[static_cast<std::size_t>(id)]);
    (*positions_)[static_cast<std::size_t>(id)] = -1;
    if (at + 1 == entries_.size()) {
      entries_.pop_back();
      return;
    }
    entries_[at] = entries_.back();
    entries_.pop_back();
    place(at);
    sift_down(sift_up(at));
  }
  void pop() { remove(entries_.front().id); }
  void update(int id, double key) {
    const std::size_t at = static_cast<std::size_t>((*positions_)[static_cast<std::size_t>(id)]);
    entries_[at].key = key;
    sift_down(sift_up(at));
  }
  // Adds `delta` to every key: the order is unchanged.
  void shift_keys(double delta) {
    for (Entry& e : entries_) e.key += delta;
  }
  void clear() {
    for (const Entry& e : entries_) (*positions_)[static_cast<std::size_t>(e.id)] = -1;
    entries_.clear();
  }

 private:
  static bool before(const Entry& a, const Entry& b) { return a.key < b.key || (a.key == b.key && a.tie < b.tie); }
  void place(std::size_t at) { (*positions_)[static_cast<std::size_t>(entries_[at].id)] = static_cast<int>(at); }
  std::size_t sift_up(std::size_t at) {
    while (at > 0) {
      const std::size_t parent = (at - 1) / 2;
      if (!before(entries_[at], entries_[parent])) break;
      std::swap(entries_[at], entries_[parent]);
      place(at);
      place(parent);
      at = parent;
    }
    return at;
  }
  void sift_down(std::size_t at) {
    for (;;) {
      const std::size_t left = 2 * at + 1;
      if (left >= entries_.size()) return;
      std::size_t least = left;
      if (left + 1 < entries_.size() && before(entries_[left + 1], entries_[left])) least = left + 1;
      if (!before(entries_[least], entries_[at])) return;
      std::swap(entries_[at], entries_[least]);
      place(at);
      place(least);
      at = least;
    }
  }

  std::vector<Entry> entries_;
  std::vector<int>* positions_;
};

}  // namespace sonicsim::network
