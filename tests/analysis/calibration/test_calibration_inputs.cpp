// The calibration CSV and perf_analyzer CSV readers: values, provenance, and errors that name the
// file, line and column.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>

#include "analysis/calibration/calibration_csv.hpp"
#include "analysis/calibration/perf_analyzer_csv.hpp"
#include "models/io/input_error.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using namespace sonicsim::calibration;

namespace {

struct TempFile {
  std::string path;
  TempFile(std::string name, const std::string& text) : path(std::move(name)) { std::ofstream(path) << text; }
  ~TempFile() { std::remove(path.c_str()); }
};

const char* const kOurs =
    "# sonicsim calibration data v1\n"
    "# device: NVIDIA Example GPU\n"
    "# source: a test\n"
    "# a plain comment without a key\n"
    "batch_size,mean_s,p50_s,p99_s,stddev_s,repeats,throughput_items_per_s\n"
    "1,2.0e-04,1.9e-04,3.0e-04,4.0e-05,400,5.0e+03\n"
    "64,4.0e-04,3.9e-04,5.0e-04,1.0e-05,100,1.6e+05\n";

// Rows sorted by throughput, as perf_analyzer writes them: concurrency 8 comes before 4.
const char* const kPerf =
    "Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,"
    "Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n"
    "2,130.5,230,2200,150,210,11790,20,3,14950,19000,19800,21100\n"
    "1,69.2,225,2148,64,206,11781,19,0,13891,18795,19753,21018\n"
    "8,140.1,240,2500,40000,215,11800,21,4,56000,60000,61000,63000\n"
    "4,141.0,235,2400,16000,212,11795,20,4,28000,30000,31000,32000\n";

}  // namespace

TEST_CASE("a calibration CSV gives its provenance and the chosen statistic with its standard error") {
  TempFile file("calibration_ok.csv", kOurs);
  const CalibrationInput mean = read_calibration_csv(file.path, LatencyStatistic::Mean);
  REQUIRE(mean.provenance.size() == 2);
  CHECK(mean.provenance[0] == std::pair<std::string, std::string>{"device", "NVIDIA Example GPU"});
  REQUIRE(mean.points.size() == 2);
  CHECK(mean.points[1].batch == 64);
  CHECK(mean.points[1].latency_s == 4.0e-04);
  CHECK(mean.points[0].standard_error_s == doctest::Approx(4.0e-05 / 20));  // s / sqrt(400)
  const CalibrationInput p50 = read_calibration_csv(file.path, LatencyStatistic::P50);
  CHECK(p50.points[0].latency_s == 1.9e-04);
  CHECK(p50.points[0].standard_error_s == doctest::Approx(std::sqrt(M_PI / 2) * 4.0e-05 / 20));
  CHECK(read_calibration_csv(file.path, LatencyStatistic::P99).points[1].latency_s == 5.0e-04);
}

TEST_CASE("--statistic throughput fits batch / throughput, with the delta-method error of the throughput") {
  // A published scan: the throughput is the mean of batch/t over calls, so batch / throughput (the
  // harmonic mean of the call times) is not the mean latency, which one slow call can dominate.
  const std::string header =
      "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats,throughput_items_per_s";
  TempFile with_error("calibration_throughput.csv", header +
                                                        ",throughput_sem_items_per_s\n"
                                                        "4,3.7e-02,3.7e-02,3.7e-02,3.5e-01,100,2.0e+03,20\n"
                                                        "32,2.2e-03,2.2e-03,2.2e-03,4.0e-05,100,1.6e+04,40\n");
  const CalibrationInput in = read_calibration_csv(with_error.path, LatencyStatistic::Throughput);
  REQUIRE(in.points.size() == 2);
  CHECK(in.points[0].latency_s == doctest::Approx(4 / 2.0e3));
  CHECK(in.points[1].latency_s == doctest::Approx(32 / 1.6e4));
  CHECK(in.points[0].standard_error_s == doctest::Approx(4 / (2.0e3 * 2.0e3) * 20));  // |d(b/T)/dT| * sem(T)
  CHECK(in.points[1].standard_error_s == doctest::Approx(32 / (1.6e4 * 1.6e4) * 40));
  CHECK(read_calibration_csv(with_error.path, LatencyStatistic::Mean).points[0].latency_s == 3.7e-02);

  TempFile without_error("calibration_throughput_no_error.csv", header + "\n8,1e-03,1e-03,1e-03,1e-05,10,1.0e+04\n");
  const CalibrationInput bare = read_calibration_csv(without_error.path, LatencyStatistic::Throughput);
  CHECK(bare.points[0].latency_s == doctest::Approx(8e-4));
  CHECK(bare.points[0].standard_error_s == 0);

  TempFile no_column(
      "calibration_no_throughput.csv",
      "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats\n1,1e-3,1e-3,1e-3,0,1\n");
  CHECK(read_calibration_csv(no_column.path, LatencyStatistic::Mean).points.size() == 1);
  CHECK(test::input_error_of([&] {
          read_calibration_csv(no_column.path, LatencyStatistic::Throughput);
        }).find("column line: expected a column \"throughput_items_per_s\" for --statistic throughput") !=
        std::string::npos);
  TempFile zero("calibration_zero_throughput.csv", header + "\n1,1e-3,1e-3,1e-3,0,1,0\n");
  CHECK(test::input_error_of([&] {
          read_calibration_csv(zero.path, LatencyStatistic::Throughput);
        }).find("line 3, column \"throughput_items_per_s\": expected a positive throughput in items/s") !=
        std::string::npos);
  TempFile fast("calibration_fast_throughput.csv", header + "\n1,1e-3,1e-3,1e-3,0,1,1e300\n");
  CHECK(test::input_error_of([&] { read_calibration_csv(fast.path, LatencyStatistic::Throughput); })
            .find("line 3, column \"throughput_items_per_s\": expected a latency from 1e-09 s to 1e+08 s, got 1e-300 s "
                  "(batch / throughput)") != std::string::npos);
}

TEST_CASE("malformed calibration CSVs name the line and the column") {
  const std::string header = "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats\n";
  {
    TempFile f("calibration_bad_number.csv", header + "1,2e-4,2e-4,3e-4,1e-5,10\n8,fast,2e-4,3e-4,1e-5,10\n");
    const std::string e = test::input_error_of([&] { read_calibration_csv(f.path, LatencyStatistic::Mean); });
    CHECK(e.find("calibration_bad_number.csv: line 4, column \"mean_s\": expected a number, got \"fast\"") !=
          std::string::npos);
  }
  {
    TempFile f("calibration_negative.csv", header + "1,-2e-4,2e-4,3e-4,1e-5,10\n");
    CHECK(test::input_error_of([&] {
            read_calibration_csv(f.path, LatencyStatistic::Mean);
          }).find("line 3, column \"mean_s\": expected a positive number of seconds") != std::string::npos);
  }
  {
    // 1/latency^2 (the fits' weights) of 1e-310 s overflows; a p99 of 1e300 s is past the longest run.
    TempFile f("calibration_denormal.csv", header + "1,1e-310,1e-310,2e-310,0,10\n");
    CHECK(test::input_error_of([&] {
            read_calibration_csv(f.path, LatencyStatistic::Mean);
          }).find("line 3, column \"mean_s\": expected a latency from 1e-09 s to 1e+08 s, got 1e-310") !=
          std::string::npos);
    TempFile g("calibration_long.csv", header + "1,1e-3,1e-3,1e300,0,10\n");
    CHECK(test::input_error_of([&] {
            read_calibration_csv(g.path, LatencyStatistic::Mean);
          }).find("line 3, column \"p99_s\": expected a latency from 1e-09 s to 1e+08 s, got 1e300") !=
          std::string::npos);
    TempFile h("calibration_edges.csv", header + "1,1e-9,1e-9,1e8,1e8,10\n");
    CHECK(read_calibration_csv(h.path, LatencyStatistic::P99).points[0].latency_s == 1e8);
    TempFile big("calibration_huge_stddev.csv", header + "1,1e-3,1e-3,2e-3,1e300,10\n");
    CHECK(test::input_error_of([&] {
            read_calibration_csv(big.path, LatencyStatistic::Mean);
          }).find("line 3, column \"stddev_s\": expected a standard deviation from 0 to 1e+08 s") != std::string::npos);
  }
  {
    TempFile f("calibration_unsorted.csv", header + "8,2e-4,2e-4,3e-4,1e-5,10\n4,2e-4,2e-4,3e-4,1e-5,10\n");
    CHECK(test::input_error_of([&] {
            read_calibration_csv(f.path, LatencyStatistic::Mean);
          }).find("line 4, column \"batch_size\": expected batch sizes in strictly increasing order") !=
          std::string::npos);
  }
  {
    TempFile f("calibration_short_row.csv", header + "1,2e-4,2e-4\n");
    const std::string e = test::input_error_of([&] { read_calibration_csv(f.path, LatencyStatistic::Mean); });
    CHECK(e.find("calibration_short_row.csv: line 3") != std::string::npos);
  }
  {
    TempFile f("calibration_missing_column.csv",
               "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,stddev_s,repeats\n");
    CHECK(test::input_error_of([&] { read_calibration_csv(f.path, LatencyStatistic::Mean); }).find("p99_s") !=
          std::string::npos);
  }
  {
    TempFile f("calibration_no_magic.csv", "batch_size,mean_s\n");
    CHECK(test::input_error_of([&] {
            read_calibration_csv(f.path, LatencyStatistic::Mean);
          }).find("line 1: expected \"# sonicsim calibration data v1\"") != std::string::npos);
  }
  {
    TempFile f("calibration_empty.csv", header);
    CHECK(test::input_error_of([&] {
            read_calibration_csv(f.path, LatencyStatistic::Mean);
          }).find("at least one row") != std::string::npos);
  }
}

TEST_CASE("perf_analyzer CSV rows are read in file order (sorted by throughput) with integer microseconds") {
  TempFile file("perf_ok.csv", kPerf);
  const PerfAnalyzerTable table = read_perf_analyzer_csv(file.path);
  CHECK(table.load_column == "Concurrency");
  REQUIRE(table.rows.size() == 4);
  CHECK(table.rows[0].load == 2);
  CHECK(table.rows[2].load == 8);
  CHECK(table.rows[2].inferences_per_s == 140.1);
  CHECK(table.rows[2].server_queue_us == 40000);
  CHECK(table.rows[1].compute_infer_us == 11781);
  CHECK(table.rows[1].p99_us == 21018);
  CHECK(table.rows[1].line == 3);

  // The kernel time comes from the lowest load (concurrency 1, the second row), in seconds.
  const CalibrationInput input = kernel_point_from_perf_analyzer(table, 4);
  REQUIRE(input.points.size() == 1);
  CHECK(input.points[0].batch == 4);
  CHECK(input.points[0].latency_s == doctest::Approx(11781e-6));
  CHECK(input.points[0].overheads_s.at(0) == std::pair<std::string, double>{"client_send", 225e-6});
  CHECK(input.points[0].overheads_s.at(1).second == doctest::Approx(2148e-6));
}

TEST_CASE("a request-rate perf_analyzer CSV without server columns is read, but gives no kernel time") {
  TempFile file(
      "perf_rate.csv",
      "Request Rate,Inferences/Second,Client Send,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n"
      "100,99.8,20,5,900,1000,1100,1300\n"
      "50,50.0,20,5,800,900,950,1000\n");
  const PerfAnalyzerTable table = read_perf_analyzer_csv(file.path);
  CHECK(table.load_column == "Request Rate");
  CHECK_FALSE(table.rows[0].compute_infer_us.has_value());
  CHECK(test::input_error_of([&] { kernel_point_from_perf_analyzer(table, 1); }).find("Server Compute Infer") !=
        std::string::npos);
}

TEST_CASE("malformed perf_analyzer CSVs name the line and the column") {
  const std::string header =
      "Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,"
      "Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n";
  {
    TempFile f("perf_fractional_us.csv", header + "1,69.2,225,2148,64,206,11781.5,19,0,13891,18795,19753,21018\n");
    CHECK(test::input_error_of([&] { read_perf_analyzer_csv(f.path); })
              .find("perf_fractional_us.csv: line 2, column \"Server Compute Infer\": expected an integer, got "
                    "\"11781.5\"") != std::string::npos);
  }
  {
    TempFile f("perf_bad_rate.csv", header +
                                        "1,69.2,225,2148,64,206,11781,19,0,13891,18795,19753,21018\n"
                                        "2,lots,225,2148,64,206,11781,19,0,13891,18795,19753,21018\n");
    CHECK(test::input_error_of([&] { read_perf_analyzer_csv(f.path); }).find("line 3, column \"Inferences/Second\"") !=
          std::string::npos);
  }
  {
    TempFile f("perf_short_row.csv", header + "1,69.2,225\n");
    CHECK(test::input_error_of([&] { read_perf_analyzer_csv(f.path); }).find("line 2") != std::string::npos);
  }
  {
    TempFile f("perf_both_loads.csv",
               "Concurrency,Request Rate,Inferences/Second,Client Send,Client Recv\n1,1,1,1,1\n");
    CHECK(test::input_error_of([&] { read_perf_analyzer_csv(f.path); }).find("exactly one of the columns") !=
          std::string::npos);
  }
}
