#pragma once
// One scan of Triton's dynamic batcher over its queue (DynamicBatchScheduler::GetDynamicBatch,
// restated in docs/reference/triton.md §5.3): given the units already in the current
// payload and the queued requests in scan order, decide whether to move a prefix of the queue into
// the payload now, or how long to wait. Pure: no clock, no threads, no SimGrid. Queue policies
// (timeouts, cancellation) are applied by the caller as Triton's scan cursor reaches each request;
// `queue` holds the requests that survived them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/triton/model_config.hpp"

namespace sonicsim::triton {

struct ScannedRequest {
  int units = 1;               // max(1, request batch)
  double batcher_start_s = 0;  // when it entered the batcher
  double deadline_s = 0;       // queue-policy timeout; 0 = none
  std::int64_t shape = 0;      // shape-checked models: requests of one batch share it
};

struct ScanResult {
  double wait_s = 0;       // > 0: nothing is taken; wake up after this long at the latest
  double wake_at_s = 0;    // the same as an absolute time (exact: use it for timers)
  std::size_t take = 0;    // requests to move from the head of the queue into the payload
  bool saturated = false;  // the batcher's `sat` flag after the scan
  // The literal-mode wake-up threshold in queued units; set only by scans that get past the
  // send-now cases (Triton keeps the previous value otherwise).
  std::optional<int> next_preferred;
  // A request of another shape ended the batch: Triton's Payload::MarkSaturated, after which the
  // payload is neither merged nor merged into.
  bool mark_payload_saturated = false;
};

// model: the model's normalised config (normalize_model_config), read as the scan's settings: batching
// units are capped at max(1, max_batch_size); its dynamic_batching, which it must have, gives the
// preferred sizes and the delay. shape_checked: a variable input without allow_ragged_batch, so
// requests of another shape end the batch. base_units: units already in the current payload (0 for a
// fresh one), base_shape: its shape. saturated: the batcher's `sat` flag before the scan.
ScanResult scan_queue(const ModelConfig& model, bool shape_checked, int base_units, bool saturated,
                      const std::vector<ScannedRequest>& queue, double now_s, std::int64_t base_shape = 0);

}  // namespace sonicsim::triton
