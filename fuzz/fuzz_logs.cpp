// The site-log readers `sonicsim validate` takes: per-event CSV, condor_history -json, Triton's
// Prometheus text, perf_analyzer's profile export, per-job throughput logs and Prometheus
// range-query exports (each column read from them); and job submission
// traces (CSV or condor_history), which scenarios read. The first byte picks the reader.
#include "analysis/validation/job_throughput.hpp"
#include "analysis/validation/perf_profile.hpp"
#include "analysis/validation/prometheus_export.hpp"
#include "analysis/validation/site_logs.hpp"
#include "fuzz/fuzz_input.hpp"
#include "models/jobs/job_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned which = data[0] % 7;
  sonicsim::fuzz::expect_input_errors_only(data + 1, size - 1, [which](const std::string& text) {
    using namespace sonicsim::validation;
    if (which == 0) parse_event_log(text, "fuzz.csv");
    if (which == 1) parse_condor_history(text, "fuzz.json");
    if (which == 2)
      triton_window({parse_prometheus_scrape(text, "fuzz.prom", 1.0), parse_prometheus_scrape(text, "b.prom", 2.0)});
    if (which == 3) parse_perf_profile(text, "fuzz.json");
    if (which == 4) sonicsim::parse_job_trace(text, "fuzz.trace");
    if (which == 5) {
      is_job_throughput_log(text);
      parse_job_throughput_log(text, "fuzz.txt");
    }
    if (which == 6) {
      is_prometheus_export(text);
      const PromExport file = parse_prometheus_export(text, "fuzz.json");
      for (const std::string& column : prometheus_columns()) {
        try {
          measured_column(file, column);
        } catch (const sonicsim::InputError&) {  // a column this export cannot stand for
        }
      }
    }
  });
  return 0;
}
