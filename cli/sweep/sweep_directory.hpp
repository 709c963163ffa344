#pragma once
// A sweep's output directory, which the local and the Slurm executors share and which makes a
// sweep resumable: sweep.json (the scenario and axes; another sweep may not reuse the directory),
// points/NNNNNN.json per finished point (written whole or not at all), points/NNNNNN.error per
// failed one, and sweep.csv assembled from them.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/summary/summary.hpp"
#include "cli/sweep/sweep_grid.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim::cli {

// The scenario of one point of a sweep: the file with the point's values set, as run_point simulates
// it. Throws what the reader throws, and std::invalid_argument for a load that is no grid-job workload.
Scenario load_point_scenario(const std::string& scenario_path, const std::vector<SweepAxis>& axes,
                             const std::vector<std::string>& values);

// Written to a temporary name and renamed, so an interrupted sweep never leaves half a file.
void write_atomically(const std::filesystem::path& path, const std::string& text);

class SweepDirectory {
 public:
  // A new or resumed sweep: creates sweep.json, or checks that the one there defines this sweep.
  SweepDirectory(std::filesystem::path dir, const std::string& scenario_path, const std::vector<SweepAxis>& axes);
  // An existing sweep, read back from its sweep.json (to collect it, or to run points in a Slurm task).
  static SweepDirectory open(const std::filesystem::path& dir);

  const std::filesystem::path& path() const { return dir_; }
  const std::string& scenario_path() const { return scenario_path_; }
  const std::vector<SweepAxis>& axes() const { return axes_; }
  const std::vector<std::vector<std::string>>& points() const { return points_; }
  // Whether the scenario file still has the content the sweep was defined with.
  bool scenario_unchanged() const;

  std::filesystem::path point_file(int point, const char* extension) const;
  // A point's summary, if its file holds a whole one.
  std::optional<Summary> finished_point(int point) const;
  bool failed_point(int point) const { return std::filesystem::exists(point_file(point, "error")); }
  // The points to run: those without a whole result. Clears what they left (a cut-short result,
  // the error of a failed try), so that they are tried again.
  std::vector<int> prepare_pending();

  // Runs one point in this process and writes its result.
  void run_point(int point) const;
  void record_failure(int point, const std::string& error) const;

  struct TableCounts {
    int ok = 0, failed = 0, not_run = 0;
  };
  // Writes sweep.csv; `why_missing(point)` says why a point has neither result nor error.
  TableCounts write_table(const std::function<std::string(int point)>& why_missing) const;

 private:
  SweepDirectory(std::filesystem::path dir, std::string scenario_path, std::vector<SweepAxis> axes, int);
  nlohmann::json definition() const;
  nlohmann::json axes_json() const;

  std::filesystem::path dir_;
  std::string scenario_path_;
  std::vector<SweepAxis> axes_;
  std::vector<std::vector<std::string>> points_;
};

}  // namespace sonicsim::cli
