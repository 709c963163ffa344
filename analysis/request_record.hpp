#pragma once
// One request as a simulation records it (records.hpp holds the rest of a run's records). Times are
// simulated seconds from the start of the run.
#include <cstdint>

namespace sonicsim {

enum class RequestStatus : std::uint8_t { Completed, Rejected, InFlight, Failed };

// Why a request failed (the gRPC status its client saw).
enum class FailureCause : std::uint8_t {
  None,
  Unavailable,       // UNAVAILABLE: its server failed, was down, or no ready server was left
  DeadlineExceeded,  // DEADLINE_EXCEEDED: no answer within the client's timeout
  Cancelled,         // CANCELLED: its job ended (failed) while the request was outstanding
};

// Why Triton refused a request (docs/reference/triton.md §7).
enum class RejectReason : std::uint8_t {
  None,
  BatchTooLarge,  // INVALID_ARG at submit: batch-size must be <= max_batch_size
  QueueFull,      // UNAVAILABLE at submit: Exceeds maximum queue size
  TimedOut,       // UNAVAILABLE from the batcher: Request timeout expired
};

struct RequestRecord {
  std::int64_t id = 0;
  int job = 0, event = 0, module = 0, model = 0, server = 0;
  int items = 0;
  double input_bytes = 0, output_bytes = 0;
  // arrived: last byte at the server; enqueued: parsed by the frontend, in the scheduler (Triton's
  // timestamps start here); responded: response serialised, its transfer starts.
  double sent_s = 0, arrived_s = 0, enqueued_s = 0, exec_start_s = 0, exec_end_s = 0, responded_s = 0, received_s = 0;
  std::int64_t batch = -1;
  RequestStatus status = RequestStatus::InFlight;
  RejectReason reject_reason = RejectReason::None;
  FailureCause failure = FailureCause::None;
  int attempt = 1;       // 1: the first try; later tries of the same request are new records
  bool retried = false;  // it failed and the client tried again
};

}  // namespace sonicsim
