#pragma once
// A perf_analyzer-like load against one model (docs/reference/triton.md §9): N closed-loop clients, or
// requests sent at a fixed rate with constant or Poisson spacing. Each load level is its own run.
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/request_path.hpp"
#include "models/workload/distribution.hpp"

namespace sonicsim {

enum class PerfLoadMode { Concurrency, RequestRate };
enum class RequestDistribution { Constant, Poisson };
// perf_analyzer's --measurement-mode: windows of a fixed time, or windows that last until a count of
// requests has been answered (scenarios/README.md, "Count windows").
enum class MeasurementMode { TimeWindows, CountWindows };

struct PerfAnalyzerLoad {
  int model = -1;      // index into Scenario::models
  int batch_size = 1;  // perf_analyzer's -b: items per request
  PerfLoadMode mode = PerfLoadMode::Concurrency;
  std::vector<double> levels;                                        // concurrencies, or request rates in requests/s
  RequestDistribution distribution = RequestDistribution::Constant;  // request-rate mode only
  double warmup_s = 0;                                               // load before the first measurement window
  double measurement_interval_s = 5;                                 // --measurement-interval
  int windows = 3;  // windows merged into a row (perf_analyzer's stability window)
  MeasurementMode measurement_mode = MeasurementMode::TimeWindows;
  std::int64_t measurement_request_count = 50;  // --measurement-request-count (count windows only)
  // Drawn per request (constant: the same every time, no draw), from each client's own stream.
  Distribution client_send = ConstantDist{0};      // client-side marshalling before the upload
  Distribution client_recv = ConstantDist{0};      // client-side unmarshalling after the download
  ClientProtocol protocol = ClientProtocol::Grpc;  // perf_analyzer's -i and --shared-memory
  // perf_analyzer --async's worker threads (--max-threads), concurrency loads only: the clients are
  // spread over min(concurrency, client_threads) of them, each sending its clients' requests one at
  // a time and handling their responses one at a time. 0: a thread per client (today's clients).
  int client_threads = 0;
  // Client-side work after a response is timed (outside the latency) before the client may send again.
  double client_gap_s = 0;

  double end_s() const { return warmup_s + windows * measurement_interval_s; }
};

}  // namespace sonicsim
