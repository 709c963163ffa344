// A perf_analyzer run's requests.csv and batches.csv (`run --output DIR`): each level streams its rows
// to part files, and the parts are joined level after level behind one header whose first column
// is the level. Closed forms as in test_perf_analyzer.cpp (one client, the base scenario's route).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/outputs/perf_records.hpp"
#include "analysis/outputs/perf_report.hpp"
#include "cli/processes/isolated_run.hpp"
#include "sim/perf_simulation.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

using test::kBottleneck;
using test::kOneWayLatency;

struct Csv {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  double number(std::size_t row, const std::string& column) const { return std::stod(rows.at(row).at(column)); }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
  return fields;
}

Csv read_csv(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  Csv csv;
  std::string line;
  std::getline(in, line);
  csv.header = split(line);
  while (std::getline(in, line)) {
    const auto fields = split(line);
    REQUIRE(fields.size() == csv.header.size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < fields.size(); ++i) row[csv.header[i]] = fields[i];
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

// Runs every level of `document` with its rows streamed to `directory`, then joins them.
std::vector<PerfRow> run_recorded(const json& document, const std::string& directory) {
  const Scenario scenario = test::parse(document);
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  const PerfRecordOutput output{directory, true, true};
  std::vector<PerfRow> rows;
  for (std::size_t level = 0; level < scenario.perf_analyzer->levels.size(); ++level)
    rows.push_back(json::parse(run_isolated([&]() {
                     PerfLevelRecords written(output, level, scenario.perf_analyzer->mode,
                                              scenario.perf_analyzer->levels[level], scenario.device_naming,
                                              scenario.requests_can_fail());
                     return json(perf_row(simulate_perf_level(scenario, level, &written))).dump();
                   })).get<PerfRow>());
  join_perf_records(output, rows.size(), scenario.perf_analyzer->mode,
                    RecordNames{{}, {}, {}, scenario.device_naming, scenario.requests_can_fail()});
  return rows;
}

}  // namespace

TEST_CASE("perf records, one client: every request and batch on its closed-form dates, levels in order") {
  const int b = 10;
  const json load = {{"model", "m"},
                     {"batch_size", b},
                     {"concurrency", {1, 2}},
                     {"warmup", "1s"},
                     {"measurement_interval", "2s"},
                     {"windows", 3},
                     {"client_send", "20us"},
                     {"client_recv", "10us"}};
  const std::string dir = (std::filesystem::temp_directory_path() / "sonicsim-perf-records").string();
  run_recorded(test::perf_scenario(load), dir);
  // No part file is left once joined.
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    CHECK(entry.path().filename().string().find(".part-") == std::string::npos);

  // test_perf_analyzer.cpp's one-client timeline: request k (from 0) is sent at k latency + send
  // and answered up + tau + down later; its batch runs tau alone.
  const double tau = 1e-3 + 10e-6 * b;
  const double up = kOneWayLatency + b * 4000.0 / kBottleneck;
  const double down = kOneWayLatency + b * 400.0 / kBottleneck;
  const double latency = 20e-6 + up + tau + down + 10e-6;
  const Csv requests = read_csv(dir + "/requests.csv");
  REQUIRE(requests.header.front() == "concurrency");
  CHECK(requests.header.at(1) == "request");
  std::size_t first_level = 0;
  while (first_level < requests.rows.size() && requests.rows[first_level].at("concurrency") == "1") ++first_level;
  // Level 1 ran 1 s + 3 x 2 s: the requests answered in it, and no more than one beyond.
  const auto answered = static_cast<std::size_t>(std::floor(7 / latency));
  CHECK(first_level >= answered - 1);
  CHECK(first_level <= answered + 1);
  for (std::size_t k = 0; k < first_level; k += 97) {  // a sample of the rows, from the first
    CAPTURE(k);
    CHECK(requests.rows[k].at("status") == "completed");
    CHECK(requests.rows[k].at("module") == "perf_analyzer");
    CHECK(requests.number(k, "items") == b);
    // Dates are written to the microsecond.
    CHECK(std::abs(requests.number(k, "sent_s") - (k * latency + 20e-6)) <= 2e-6);
    CHECK(std::abs(requests.number(k, "received_s") - requests.number(k, "sent_s") - (up + tau + down)) <= 2e-6);
    CHECK(std::abs(requests.number(k, "exec_end_s") - requests.number(k, "exec_start_s") - tau) <= 2e-6);
  }
  // Then level 2 to the end, and nothing else.
  CHECK(first_level < requests.rows.size());
  for (std::size_t k = first_level; k < requests.rows.size(); ++k) CHECK(requests.rows[k].at("concurrency") == "2");

  const Csv batches = read_csv(dir + "/batches.csv");
  REQUIRE(batches.header.front() == "concurrency");
  CHECK(batches.header.at(5) == "gpu");
  std::size_t level_one_batches = 0;
  for (std::size_t k = 0; k < batches.rows.size() && batches.rows[k].at("concurrency") == "1"; ++k) {
    ++level_one_batches;
    if (k % 97) continue;
    CHECK(batches.number(k, "requests") == 1);
    CHECK(batches.number(k, "items") == b);
    CHECK(std::abs(batches.number(k, "kernel_s") - tau) <= 2e-6);
  }
  // One batch per request; a batch may have ended whose answer was still on its way at the end.
  CHECK(level_one_batches >= first_level);
  CHECK(level_one_batches <= first_level + 1);
}
