#include "models/triton/batch_scan.hpp"

#include <algorithm>
#include <limits>

namespace sonicsim::triton {
namespace {

bool is_preferred(const std::vector<int>& preferred, int units) {
  return std::find(preferred.begin(), preferred.end(), units) != preferred.end();
}

}  // namespace

ScanResult scan_queue(const ModelConfig& model, bool shape_checked, int base_units, bool saturated,
                      const std::vector<ScannedRequest>& queue, double now_s, std::int64_t base_shape) {
  const DynamicBatchingConfig& batching = *model.dynamic_batching;
  const std::vector<int>& preferred = batching.preferred_batch_sizes;
  const int max_units = std::max(1, model.max_batch_size);
  const int max_preferred = preferred.empty() ? 0 : *std::max_element(preferred.begin(), preferred.end());
  const double delay = batching.max_queue_delay_s;

  ScanResult result;
  result.saturated = saturated;
  int pending_units = 0;
  std::size_t pending_count = 0;
  int best_units = 0;
  std::size_t best_count = 0;
  bool send_now = false;
  std::int64_t batch_shape = base_shape;
  for (const ScannedRequest& request : queue) {
    const int b = request.units;
    const bool starts_batch = base_units == 0 && pending_count == 0;
    if (starts_batch) {
      batch_shape = request.shape;  // the shapes the rest of the batch must match
    } else {
      if (base_units + pending_units + b > max_preferred && best_units == 0) {
        // Adding this request crosses the largest preferred size: the batch before it is the one.
        best_units = pending_units;
        best_count = pending_count;
        result.saturated = true;
      }
      if (base_units + pending_units + b > max_units) {
        send_now = true;  // it does not fit; requests behind it are never pulled forward
        break;
      }
      if (shape_checked && request.shape != batch_shape) {
        result.mark_payload_saturated = true;  // another shape: the batch ends before it
        send_now = true;
        break;
      }
    }
    ++pending_count;
    pending_units += b;
    if (is_preferred(preferred, base_units + pending_units)) {  // later (larger) hits overwrite
      best_units = pending_units;
      best_count = pending_count;
    }
  }

  double oldest = -std::numeric_limits<double>::infinity();  // nothing pending: "infinitely old"
  if (pending_count) oldest = queue[0].batcher_start_s;
  for (std::size_t i = 1; i < pending_count; ++i) oldest = std::min(oldest, queue[i].batcher_start_s);
  // Compared as absolute times, so a timer set for oldest + delay finds the delay expired exactly
  // (now - oldest could round to just below the delay and stall simulated time).
  const double expiry = oldest + delay;
  const bool delay_exceeded = delay != 0 && now_s >= expiry;

  if (best_units != 0 && !delay_exceeded) {  // (a) a preferred size, or the batch before crossing
    if (delay == 0) result.saturated = true;
    result.take = best_count;
    return result;
  }
  if (pending_count == 0) return result;
  if (send_now || base_units + pending_units >= max_preferred) {  // (b) cannot usefully grow
    result.saturated = true;
    result.take = pending_count;
    return result;
  }
  if (delay_exceeded || delay == 0) {  // (c) the payload may still grow: `sat` stays as it is
    result.take = pending_count;
    return result;
  }
  // The next preferred size above the pending batch, or else the smallest one (as Triton does),
  // relative to the payload: an arrival wakes the literal-mode batcher once that many units queue.
  int next_preferred = 0;
  for (int p : preferred)
    if (p > base_units + pending_units && (next_preferred == 0 || p < next_preferred)) next_preferred = p;
  if (next_preferred == 0 && !preferred.empty()) next_preferred = *std::min_element(preferred.begin(), preferred.end());
  // Triton subtracts in size_t: a preferred size below the payload wraps to "never".
  if (next_preferred != 0) next_preferred -= base_units;
  result.next_preferred = next_preferred < 0 ? std::numeric_limits<int>::max() : next_preferred;
  if (!result.saturated && base_units != 0 && !is_preferred(preferred, base_units)) {  // (d) grow a queued payload
    result.take = pending_count;
    return result;
  }
  // (e) keep waiting, but not past a pending request's deadline: the batcher wakes at that instant
  // and the queue then finds the deadline passed. A deadline already past (Triton's clock moved on
  // between ApplyPolicy and this check; the model's queue passes none) gets Triton's 1 us.
  result.wake_at_s = expiry;
  for (std::size_t i = 0; i < pending_count; ++i) {
    const double deadline = queue[i].deadline_s;
    if (deadline != 0) result.wake_at_s = std::min(result.wake_at_s, deadline > now_s ? deadline : now_s + 1e-6);
  }
  result.wait_s = result.wake_at_s - now_s;
  return result;
}

}  // namespace sonicsim::triton
