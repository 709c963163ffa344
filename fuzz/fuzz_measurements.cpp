// The measurement readers `sonicsim calibrate` takes: the calibration CSV, perf_analyzer's CSV,
// and the latency model file it writes. The first byte picks the reader.
#include "analysis/calibration/calibration_csv.hpp"
#include "analysis/calibration/perf_analyzer_csv.hpp"
#include "fuzz/fuzz_input.hpp"
#include "models/workload/latency_model_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned which = data[0] % 3;
  sonicsim::fuzz::expect_input_errors_only(data + 1, size - 1, [which](const std::string& text) {
    using namespace sonicsim;
    if (which == 0) calibration::parse_calibration_csv(text, "fuzz.csv", calibration::LatencyStatistic::P99);
    if (which == 1) calibration::parse_perf_analyzer_csv(text, "fuzz.csv");
    if (which == 2) parse_latency_model_file(text, "fuzz.json");
  });
  return 0;
}
