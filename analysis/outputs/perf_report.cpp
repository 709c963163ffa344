#include "analysis/outputs/perf_report.hpp"

#include <algorithm>
#include <cmath>

#include "models/io/input_error.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim {
namespace {

// Mean per request of a statistics-API duration between two snapshots, in ns.
double delta_mean_ns(const TritonDuration& start, const TritonDuration& end) {
  const std::uint64_t count = end.count - start.count;
  return count ? static_cast<double>(end.ns - start.ns) / static_cast<double>(count) : 0.0;
}

}  // namespace

std::string format_level(PerfLoadMode mode, double level) {
  if (mode == PerfLoadMode::Concurrency) return printf_string("%d", static_cast<int>(level));
  return printf_string("%g", level);
}

std::int64_t perf_percentile(const std::vector<std::int64_t>& sorted, int nn) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<std::size_t>(std::floor(nn / 100.0 * static_cast<double>(sorted.size() - 1) + 0.5));
  return sorted[std::min(index, sorted.size() - 1)];
}

PerfRow perf_row(const PerfMeasurement& m) {
  PerfRow row;
  row.level = m.level;
  const auto n = static_cast<std::int64_t>(m.latencies_ns.size());
  row.requests = n;
  row.inferences_per_s = m.window_s > 0 ? static_cast<double>(n) * m.batch_size / m.window_s : 0;

  std::vector<std::int64_t> sorted = m.latencies_ns;
  std::sort(sorted.begin(), sorted.end());
  std::int64_t total = 0;
  for (std::int64_t l : sorted) total += l;
  const double avg_ns = n ? static_cast<double>(total) / static_cast<double>(n) : 0;
  const double send_ns = n ? static_cast<double>(m.send_ns) / static_cast<double>(n) : 0;
  const double recv_ns = n ? static_cast<double>(m.recv_ns) / static_cast<double>(n) : 0;

  const TritonModelStats& a = m.server_start;
  const TritonModelStats& b = m.server_end;
  const double queue_ns = delta_mean_ns(a.queue, b.queue);
  const double input_ns = delta_mean_ns(a.compute_input, b.compute_input);
  const double infer_ns = delta_mean_ns(a.compute_infer, b.compute_infer);
  const double output_ns = delta_mean_ns(a.compute_output, b.compute_output);
  // The residual: whatever the client waited that neither side measured (network, frontend).
  const double overhead_ns = std::max(0.0, avg_ns - send_ns - recv_ns - (queue_ns + input_ns + infer_ns + output_ns));

  auto us = [](double ns) { return static_cast<std::int64_t>(ns / 1000); };
  row.client_send_us = us(send_ns);
  row.network_server_us = us(overhead_ns);
  row.server_queue_us = us(queue_ns);
  row.server_compute_input_us = us(input_ns);
  row.server_compute_infer_us = us(infer_ns);
  row.server_compute_output_us = us(output_ns);
  row.client_recv_us = us(recv_ns);
  row.p50_us = perf_percentile(sorted, 50) / 1000;
  row.p90_us = perf_percentile(sorted, 90) / 1000;
  row.p95_us = perf_percentile(sorted, 95) / 1000;
  row.p99_us = perf_percentile(sorted, 99) / 1000;
  row.avg_us = us(avg_ns);
  return row;
}

std::string perf_csv(PerfLoadMode mode, std::vector<PerfRow> rows) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const PerfRow& x, const PerfRow& y) { return x.inferences_per_s < y.inferences_per_s; });
  std::string out = mode == PerfLoadMode::Concurrency ? "Concurrency" : "Request Rate";
  out +=
      ",Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,"
      "Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n";
  for (const PerfRow& r : rows) {
    if (r.requests == 0) continue;
    out += printf_string(
        "%s,%g,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", format_level(mode, r.level).c_str(),
        r.inferences_per_s, static_cast<long long>(r.client_send_us), static_cast<long long>(r.network_server_us),
        static_cast<long long>(r.server_queue_us), static_cast<long long>(r.server_compute_input_us),
        static_cast<long long>(r.server_compute_infer_us), static_cast<long long>(r.server_compute_output_us),
        static_cast<long long>(r.client_recv_us), static_cast<long long>(r.p50_us), static_cast<long long>(r.p90_us),
        static_cast<long long>(r.p95_us), static_cast<long long>(r.p99_us));
  }
  return out;
}

std::string format_perf_table(PerfLoadMode mode, const std::vector<PerfRow>& rows) {
  std::string out = printf_string("%-12s %14s %10s %10s %10s %10s %10s %10s\n",
                                  mode == PerfLoadMode::Concurrency ? "concurrency" : "request/s", "infer/s", "avg us",
                                  "queue us", "compute us", "p50 us", "p90 us", "p99 us");
  for (const PerfRow& r : rows) {
    if (r.requests == 0) {
      out +=
          printf_string("%-12s %s\n", format_level(mode, r.level).c_str(), "no request came back inside the windows");
      continue;
    }
    out += printf_string(
        "%-12s %14.1f %10lld %10lld %10lld %10lld %10lld %10lld\n", format_level(mode, r.level).c_str(),
        r.inferences_per_s, static_cast<long long>(r.avg_us), static_cast<long long>(r.server_queue_us),
        static_cast<long long>(r.server_compute_input_us + r.server_compute_infer_us + r.server_compute_output_us),
        static_cast<long long>(r.p50_us), static_cast<long long>(r.p90_us), static_cast<long long>(r.p99_us));
  }
  return out;
}

std::string no_response(const PerfAnalyzerLoad& load, const std::string& which) {
  return printf_string(
      "no request came back inside the %d x %g s windows at %s: no throughput or latency to report "
      "(perf_analyzer stops at such a level: \"No valid requests recorded within time interval\")",
      load.windows, load.measurement_interval_s, which.c_str());
}

std::string no_response_error(const Scenario& scenario, double level) {
  const PerfAnalyzerLoad& load = *scenario.perf_analyzer;
  return InputError(scenario.file, "/perf_analyzer/measurement_interval",
                    no_response(load, level_name(load.mode, level)))
      .what();
}

std::string level_name(PerfLoadMode mode, double level) {
  return (mode == PerfLoadMode::Concurrency ? "concurrency " : "request rate ") + format_level(mode, level);
}

std::string level_pointer(PerfLoadMode mode, std::size_t index) {
  return (mode == PerfLoadMode::Concurrency ? "/perf_analyzer/concurrency/" : "/perf_analyzer/request_rate/") +
         std::to_string(index);
}

}  // namespace sonicsim
