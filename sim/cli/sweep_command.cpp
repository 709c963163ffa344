#include "sim/cli/sweep_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include <boost/program_options.hpp>

#include "sim/cli/command_line.hpp"
#include "analysis/output_file.hpp"
#include "analysis/summary.hpp"
#include "analysis/sweep_table.hpp"
#include "models/json_reader.hpp"
#include "models/scenario_parser.hpp"
#include "models/sweep_grid.hpp"
#include "sim/process_pool.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Written to a temporary name and renamed, so an interrupted sweep never leaves half a file.
void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path temporary = path.string() + ".tmp";
  write_file(temporary.string(), text);
  fs::rename(temporary, path);
}

std::string fnv1a(const std::string& text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

fs::path point_file(const fs::path& dir, int point, const char* extension) {
  char name[32];
  std::snprintf(name, sizeof name, "%06d.%s", point, extension);
  return dir / "points" / name;
}

// The sweep's definition: a directory holding a different one is not resumed.
json sweep_definition(const std::string& scenario_path, const std::vector<SweepAxis>& axes) {
  json axes_json = json::array();
  for (const auto& a : axes) axes_json.push_back({{"pointer", a.pointer}, {"values", a.values}});
  return {{"scenario", scenario_path},
          {"scenario_fnv1a", fnv1a(read_input_file(scenario_path, kMaxConfigFileBytes))},
          {"axes", axes_json}};
}

void prepare_directory(const fs::path& dir, const json& definition) {
  const fs::path file = dir / "sweep.json";
  if (fs::exists(file)) {
    const json existing = read_json_file(file.string());
    if (existing != definition)
      throw std::invalid_argument(dir.string() + " holds a different sweep (" + file.string() +
                                  " does not match this scenario and these --set values); use another --output");
  } else {
    fs::create_directories(dir / "points");
    write_atomically(file, definition.dump(2) + "\n");
  }
  fs::create_directories(dir / "points");
}

void run_point(const std::string& scenario_path, const std::vector<SweepAxis>& axes,
               const std::vector<std::string>& values, int point, const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> overrides;
  json parameters = json::object();
  for (std::size_t a = 0; a < axes.size(); ++a) {
    overrides.emplace_back(axes[a].pointer, values[a]);
    parameters[axes[a].pointer] = values[a];
  }
  const Scenario scenario = load_scenario(scenario_path, overrides);
  if (scenario.perf_analyzer) throw std::invalid_argument("sweep runs grid-job workloads; this scenario is a perf_analyzer load");
  const Summary summary = summarize(simulate(scenario));
  write_atomically(point_file(dir, point, "json"),
                   json{{"point", point}, {"parameters", parameters}, {"summary", summary_to_json(summary)}}.dump() + "\n");
}

// A point's summary, if its file holds a whole one. A file cut short (by a full disk or a crash
// before results were written atomically) or edited by hand counts as not done.
std::optional<json> finished_point(const fs::path& file) {
  if (!fs::exists(file)) return std::nullopt;
  try {
    json point = read_json_file(file.string(), kMaxLogFileBytes);
    if (point.is_object() && point.contains("summary") && point["summary"].is_object()) return std::move(point["summary"]);
  } catch (const InputError&) {
  }
  return std::nullopt;
}

class Progress {
 public:
  Progress(int total, int already_done, bool show) : total_(total), done_(already_done), show_(show) {}

  void finished(bool ok) {
    ++done_;
    failed_ += ok ? 0 : 1;
    if (!show_) return;
    const int width = 30;
    const int filled = total_ ? width * done_ / total_ : width;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int ran = done_ - initially_done_;
    const double eta = ran > 0 ? elapsed / ran * (total_ - done_) : 0;
    std::fprintf(stderr, "\r[%s%s] %d/%d points, %d failed, %.0f s elapsed, about %.0f s left ",
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), done_, total_, failed_,
                 elapsed, eta);
    if (done_ == total_) std::fputc('\n', stderr);
  }

 private:
  int total_, done_, failed_ = 0;
  int initially_done_ = done_;
  bool show_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
  po::options_description options("sonicsim sweep SCENARIO.json --set /JSON/POINTER=VALUES ... --output DIR [options]");
  std::string output;
  std::vector<std::string> sets;
  int parallel = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.add_options()
      ("help,h", "show this help")
      ("set", po::value(&sets)->composing(),
       "an axis of the grid: /JSON/POINTER=VALUES, VALUES a list (1,2,4), a range START:STOP:STEP (50:400:50, STOP "
       "included) or a JSON array; several --set form a grid (repeatable)")
      ("output,o", po::value(&output), "directory for sweep.csv and the per-point results; rerun the same command to "
                                       "resume an interrupted sweep")
      ("jobs,j", po::value(&parallel), "points simulated at once, one process each (default: the number of cores)")
      ("quiet,q", "print nothing but errors");
  std::string scenario_path;
  const auto parsed = parse_command_line(args, options, "scenario", po::value(&scenario_path), 1);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (scenario_path.empty()) throw po::error("missing the scenario file (sonicsim sweep SCENARIO.json ...)");
  if (output.empty()) throw po::error("missing --output DIR (where the sweep keeps its points, so it can resume)");
  if (parallel < 1 || parallel > 1024) throw po::error("--jobs expects 1 to 1024 processes at once");
  const bool quiet = vm.count("quiet") > 0;

  std::vector<SweepAxis> axes;
  for (const std::string& s : sets) axes.push_back(parse_sweep_axis(s));
  const auto points = sweep_points(axes);
  load_scenario(scenario_path);  // a broken scenario is one error now, not one per point
  const fs::path dir(output);
  prepare_directory(dir, sweep_definition(scenario_path, axes));

  std::vector<int> pending;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    if (finished_point(point_file(dir, i, "json"))) continue;
    fs::remove(point_file(dir, i, "json"));   // cut short: run it again
    fs::remove(point_file(dir, i, "error"));  // a failed point is tried again
    pending.push_back(i);
  }
  const int done_before = static_cast<int>(points.size() - pending.size());
  if (!quiet)
    std::cout << "sweep: " << points.size() << " points, " << done_before << " already done, running "
              << pending.size() << " with " << parallel << (parallel == 1 ? " process" : " processes") << std::endl;

  Progress progress(static_cast<int>(points.size()), done_before, !quiet && isatty(STDERR_FILENO));
  run_in_processes(
      pending, parallel, [&](int i) { run_point(scenario_path, axes, points[static_cast<std::size_t>(i)], i, dir); },
      [&](const TaskOutcome& outcome) {
        if (!outcome.ok) {
          write_atomically(point_file(dir, outcome.task, "error"), outcome.error + "\n");
          if (!quiet && !isatty(STDERR_FILENO))
            std::cerr << "sonicsim: point " << outcome.task << " failed: " << outcome.error << '\n';
        }
        progress.finished(outcome.ok);
      });

  std::vector<SweepPointResult> results;
  int failed = 0;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    SweepPointResult r{points[static_cast<std::size_t>(i)], std::nullopt, ""};
    if (auto summary = finished_point(point_file(dir, i, "json"))) {
      r.summary = std::move(summary);
    } else {
      const fs::path error = point_file(dir, i, "error");
      r.error = fs::exists(error) ? read_input_file(error.string(), kMaxLogFileBytes) : "did not run";
      while (!r.error.empty() && r.error.back() == '\n') r.error.pop_back();
      ++failed;
    }
    results.push_back(std::move(r));
  }
  std::vector<std::string> pointers;
  for (const auto& a : axes) pointers.push_back(a.pointer);
  write_atomically(dir / "sweep.csv", sweep_csv(pointers, results));
  if (!quiet)
    std::cout << "sweep: " << points.size() - failed << " points ok, " << failed << " failed; table in "
              << (dir / "sweep.csv").string() << '\n';
  return failed ? 1 : 0;
}

}  // namespace sonicsim::cli
