// perf_analyzer's report from one load level's measurements: its arithmetic (docs/reference/triton.md §9.1).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "analysis/outputs/perf_report.hpp"

using namespace sonicsim;

TEST_CASE("perf report: percentile index floor(NN/100 (n-1) + 0.5), integer microseconds, rows by throughput") {
  const std::vector<std::int64_t> sorted = {10, 20, 30, 40};
  CHECK(perf_percentile(sorted, 50) == 30);  // floor(1.5 + 0.5) = 2
  CHECK(perf_percentile(sorted, 90) == 40);  // floor(2.7 + 0.5) = 3
  CHECK(perf_percentile(sorted, 10) == 10);  // floor(0.3 + 0.5) = 0
  CHECK(perf_percentile({}, 50) == 0);

  PerfMeasurement m;
  m.level = 2;
  m.batch_size = 4;
  m.window_s = 2;
  m.latencies_ns = {5'000'999, 3'000'500};  // mean 4'000'749.5 ns
  m.send_ns = 2 * 100'999;
  m.recv_ns = 2 * 50'000;
  m.server_end.queue = {10, 10'000'000};  // Δ over 4 requests: 1 ms each
  m.server_start.queue = {6, 6'000'000};
  m.server_end.compute_infer = {10, 10'004'000};  // Δ 2'004'000 / 4 = 501'000 ns
  m.server_start.compute_infer = {6, 8'000'000};
  const PerfRow row = perf_row(m);
  CHECK(row.inferences_per_s == doctest::Approx(2 * 4 / 2.0));
  CHECK(row.client_send_us == 100);  // 100.999 truncated
  CHECK(row.client_recv_us == 50);
  CHECK(row.server_queue_us == 1000);
  CHECK(row.server_compute_infer_us == 501);
  // 4'000'749.5 − 100'999 − 50'000 − (1'000'000 + 501'000) = 2'348'750.5 ns
  CHECK(row.network_server_us == 2348);
  CHECK(row.p50_us == 5000);  // index floor(0.5 + 0.5) = 1 of {3000500, 5000999}
  CHECK(row.avg_us == 4000);

  PerfRow slow = row, fast = row;
  slow.level = 8;
  slow.inferences_per_s = 10;
  fast.level = 1;
  fast.inferences_per_s = 20;
  const std::string csv = perf_csv(PerfLoadMode::Concurrency, {fast, slow});
  CHECK(csv.rfind("Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,"
                  "Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,"
                  "p90 latency,p95 latency,p99 latency\n8,10,",
                  0) == 0);
  CHECK(csv.find("\n1,20,") != std::string::npos);
  CHECK(perf_csv(PerfLoadMode::RequestRate, {}).rfind("Request Rate,", 0) == 0);
}

TEST_CASE("perf report: a level where no request came back inside the windows is no measurement") {
  PerfMeasurement m;
  m.level = 4;
  m.window_s = 15;
  m.server_end.queue = {3, 3'000'000};  // the server worked, but no response reached the client in time
  const PerfRow silent = perf_row(m);
  CHECK(silent.requests == 0);
  m.level = 8;
  m.latencies_ns = {2'000'000};
  const PerfRow answered = perf_row(m);
  CHECK(answered.requests == 1);
  // perf_analyzer writes no row for such a level: the CSV has the other one only.
  const std::string csv = perf_csv(PerfLoadMode::Concurrency, {silent, answered});
  CHECK(csv.find("\n8,") != std::string::npos);
  CHECK(csv.find("\n4,") == std::string::npos);
  // The table says so in place of numbers (a 0 would read as a measured 0 infer/s and 0 us).
  const std::string table = format_perf_table(PerfLoadMode::Concurrency, {silent, answered});
  CHECK(table.find("\n4            no request came back inside the windows\n") != std::string::npos);
  PerfAnalyzerLoad load;
  load.windows = 3;
  load.measurement_interval_s = 5;
  CHECK(no_response(load, level_name(PerfLoadMode::Concurrency, 4))
            .rfind("no request came back inside the 3 x 5 s windows at concurrency 4: no throughput or latency", 0) ==
        0);
  CHECK(level_name(PerfLoadMode::RequestRate, 0.05) == "request rate 0.05");
  CHECK(level_pointer(PerfLoadMode::RequestRate, 2) == "/perf_analyzer/request_rate/2");
}
