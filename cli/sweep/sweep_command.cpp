#include "cli/sweep/sweep_command.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include <boost/program_options.hpp>

#include "cli/command_line.hpp"
#include "cli/processes/process_pool.hpp"
#include "cli/progress_line.hpp"
#include "cli/sweep/refused_points.hpp"
#include "cli/sweep/slurm_array.hpp"
#include "cli/sweep/slurm_sweep.hpp"
#include "cli/sweep/sweep_directory.hpp"
#include "cli/sweep/sweep_grid.hpp"
#include "models/io/message_text.hpp"
#include "models/scenario/reader/scenario_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

void run_locally(const SweepDirectory& sweep, const std::vector<int>& pending, int parallel, bool quiet) {
  const int total = static_cast<int>(sweep.points().size());
  int done = total - static_cast<int>(pending.size()), failed = 0;
  const bool on_terminal = !quiet && isatty(STDERR_FILENO);
  ProgressLine progress("points", total, done, on_terminal);
  progress.update(done, std::min(parallel, total - done), failed);
  run_in_processes(
      pending, parallel, [&](int point) { sweep.run_point(point); },
      [&](const TaskOutcome& outcome) {
        ++done;
        if (!outcome.ok) {
          ++failed;
          sweep.record_failure(outcome.task, outcome.error);
          if (!quiet && !on_terminal)
            std::cerr << "sonicsim: point " << outcome.task << " failed: " << outcome.error << '\n';
        }
        progress.update(done, std::min(parallel, total - done), failed);
      });
}

// sweep.csv from the points there are; exit code 1 if any is not ok.
int write_table(const SweepDirectory& sweep, bool quiet, std::size_t refused = 0) {
  const auto counts = sweep.write_table([&](int point) { return slurm_missing_reason(sweep.path(), point); });
  if (!quiet)
    std::cout << "sweep: " << counts.ok << " points ok, " << counts.failed << " failed"
              << (refused ? " (" + std::to_string(refused) + " of them refused by the scenario's checks)"
                          : std::string())
              << (counts.not_run ? ", " + std::to_string(counts.not_run) + " not run" : std::string()) << "; table in "
              << (sweep.path() / "sweep.csv").string() << '\n';
  return counts.failed + counts.not_run > 0 ? 1 : 0;
}

// Reasons named one by one; a grid refused for as many reasons as points (a value in each) would
// otherwise print one line per point.
constexpr std::size_t kReasonsListed = 10;

std::size_t points_in(const std::vector<RefusedGroup>& groups) {
  std::size_t n = 0;
  for (const auto& g : groups) n += g.points.size();
  return n;
}

// One line per reason: "N points (WHICH): REASON", each after `prefix`.
void print_refusals(const std::vector<RefusedGroup>& groups, const std::vector<SweepAxis>& axes,
                    const std::vector<std::vector<std::string>>& grid, const std::string& prefix,
                    const std::string& first_line_start) {
  for (std::size_t i = 0; i < groups.size() && i < kReasonsListed; ++i) {
    const auto& g = groups[i];
    std::cerr << (i == 0 ? first_line_start : prefix) << g.points.size()
              << (g.points.size() == 1 ? " point (" : " points (") << describe_points(axes, grid, g.points)
              << "): " << one_line(g.reason) << '\n';
  }
  if (groups.size() > kReasonsListed)
    std::cerr << prefix << "and " << groups.size() - kReasonsListed << " more reasons; sweep.csv has each point's\n";
}

// Two executors on one directory would run points twice.
void refuse_while_slurm_runs(const fs::path& dir) {
  if (const auto job = active_slurm_job(dir))
    throw std::runtime_error(dir.string() + " is being swept by Slurm job " + std::to_string(*job) +
                             " (squeue --jobs=" + std::to_string(*job) + "); wait for it (sonicsim sweep --collect " +
                             dir.string() + " shows how far it is, --executor slurm waits for it), or scancel " +
                             std::to_string(*job) + ", then rerun to resume");
}

// The option's value if the command line gives it, even empty or out of range: the checks see it.
template <class T>
void given(const po::variables_map& vm, const char* option, std::optional<T>& into) {
  if (vm.count(option)) into = vm[option].as<T>();
}

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "--slurm-task") {  // what DIR/slurm/task.sh runs in each array task
    if (args.size() != 2) throw po::error("--slurm-task expects the sweep directory");
    return run_slurm_task(args[1]);
  }
  po::options_description options(
      "sonicsim sweep SCENARIO.json --set /JSON/POINTER=VALUES ... --output DIR [options]\n"
      "sonicsim sweep --collect DIR");
  std::string output, collect, executor = "local";
  std::vector<std::string> sets;
  int parallel = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  SlurmArrayOptions slurm;
  options.add_options()("help,h", "show this help")(
      "set", po::value(&sets)->composing(),
      "an axis of the grid: /JSON/POINTER=VALUES, VALUES a list (1,2,4), a range START:STOP:STEP (50:400:50, STOP "
      "included) or a JSON array; several --set form a grid (repeatable)")(
      "output,o", po::value(&output),
      "directory for sweep.csv and the per-point results; rerun the same command to "
      "resume an interrupted sweep")("jobs,j", po::value(&parallel),
                                     "local executor: points simulated at once, one process each (default: the "
                                     "number of cores)")(
      "executor", po::value(&executor),
      "local (default): processes on this machine; slurm: one Slurm job array "
      "(sbatch), the points in DIR/points/ as locally")("partition", po::value<std::string>(),
                                                        "slurm: the partition (sbatch --partition)")(
      "time", po::value<std::string>(), "slurm: time limit of each array task (sbatch --time), e.g. 30 or 2:00:00")(
      "account", po::value<std::string>(), "slurm: the account charged (sbatch --account)")(
      "array-parallelism", po::value<int>(),
      "slurm: array tasks running at once (sbatch --array=...%N; default: as Slurm allows)")(
      "points-per-task", po::value<int>(),
      "slurm: points each array task runs, one after the other (default: 1, more beyond 1000 points)")(
      "sbatch-option", po::value(&slurm.extra)->composing(),
      "slurm: a further sbatch option, e.g. --sbatch-option=--qos=short (repeatable)")(
      "no-wait", "slurm: submit and return; collect later with sweep --collect DIR or by rerunning")(
      "collect", po::value(&collect), "write DIR/sweep.csv from the points done so far, running nothing")(
      "quiet,q", "print nothing but errors");
  std::string scenario_path;
  const auto parsed = parse_command_line(args, options, "scenario", po::value(&scenario_path), 1);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm.count("quiet") > 0;

  if (!collect.empty()) {
    if (!scenario_path.empty() || !sets.empty() || !output.empty())
      throw po::error("--collect DIR takes nothing else: the sweep's definition is in DIR/sweep.json");
    const SweepDirectory sweep = SweepDirectory::open(collect);
    if (const auto job = active_slurm_job(collect); job && !quiet)
      std::cout << "sweep: Slurm job " << *job << " is still running; the table holds the points done so far\n";
    return write_table(sweep, quiet);
  }
  if (scenario_path.empty()) throw po::error("missing the scenario file (sonicsim sweep SCENARIO.json ...)");
  if (output.empty()) throw po::error("missing --output DIR (where the sweep keeps its points, so it can resume)");
  if (parallel < 1 || parallel > 1024) throw po::error("--jobs expects 1 to 1024 processes at once");
  if (executor != "local" && executor != "slurm")
    throw po::error("--executor expects local or slurm, got \"" + executor + "\"");
  const bool on_slurm = executor == "slurm";
  if (!on_slurm) {
    for (const char* option :
         {"partition", "time", "account", "array-parallelism", "points-per-task", "sbatch-option", "no-wait"})
      if (vm.count(option)) throw po::error(std::string("--") + option + " is for --executor slurm");
  } else if (vm.count("jobs")) {
    throw po::error("--jobs is for the local executor; with slurm, --array-parallelism limits the tasks at once");
  }
  given(vm, "partition", slurm.partition);
  given(vm, "time", slurm.time_limit);
  given(vm, "account", slurm.account);
  given(vm, "array-parallelism", slurm.array_parallelism);
  given(vm, "points-per-task", slurm.points_per_task);
  check_slurm_options(slurm);

  std::vector<SweepAxis> axes;
  for (const std::string& s : sets) axes.push_back(parse_sweep_axis(s));
  load_scenario(scenario_path);  // a broken scenario is one error now, not one per point
  // Every point's scenario is checked before any runs: a refusal is said once, up front.
  const auto grid = sweep_points(axes);
  StatusLine checking(!quiet && isatty(STDERR_FILENO));  // some 0.2 ms a point: 20 s for the largest grids
  const auto refused = refused_points(static_cast<int>(grid.size()), [&](int point) {
    if (point % 1000 == 999)
      checking.show("checking the points' scenarios: " + std::to_string(point + 1) + "/" + std::to_string(grid.size()));
    load_point_scenario(scenario_path, axes, grid[static_cast<std::size_t>(point)]);
  });
  checking.clear();
  const std::size_t refused_count = points_in(refused);
  if (refused_count == grid.size()) {  // nothing to run: bad input, and no directory for it
    print_refusals(refused, axes, grid, "sonicsim: error: ",
                   "sonicsim: error: all " + std::to_string(grid.size()) +
                       " points refused by the scenario's checks, "
                       "none run: ");
    return 2;
  }
  if (refused_count > 0) {
    std::cerr << "sonicsim: " << refused_count << " of " << grid.size() << " points refused by the scenario's checks; "
              << "the " << grid.size() - refused_count << " others run, and the sweep ends with exit code 1:\n";
    print_refusals(refused, axes, grid, "sonicsim:   ", "sonicsim:   ");
  }
  SweepDirectory sweep(output, scenario_path, axes);
  if (!on_slurm) {
    refuse_while_slurm_runs(sweep.path());
  } else if (const auto job = active_slurm_job(sweep.path())) {
    // A rerun while the job of an earlier one runs: wait for it, then run what it left.
    if (vm.count("no-wait")) {
      if (!quiet) std::cout << "sweep: Slurm job " << *job << " is still running this sweep; nothing submitted\n";
      return 0;
    }
    if (!quiet) std::cout << "sweep: Slurm job " << *job << " is still running this sweep; waiting for it" << std::endl;
    wait_for_slurm_job(sweep, *job, !quiet && isatty(STDERR_FILENO));
  }
  std::vector<int> pending = sweep.prepare_pending();
  const std::size_t total = sweep.points().size();
  const std::size_t done_before = total - pending.size();
  std::vector<bool> is_refused(total, false);
  for (const auto& g : refused)
    for (int point : g.points) {
      is_refused[static_cast<std::size_t>(point)] = true;
      if (!sweep.finished_point(point)) sweep.record_failure(point, one_line(g.reason));
    }
  std::erase_if(pending, [&](int point) { return is_refused[static_cast<std::size_t>(point)]; });
  if (!quiet)
    std::cout << "sweep: " << total << " points, " << done_before << " already done, "
              << (refused_count ? std::to_string(refused_count) + " refused, " : std::string()) << "running "
              << pending.size()
              << (on_slurm ? std::string(" as a Slurm job array")
                           : " with " + std::to_string(parallel) + (parallel == 1 ? " process" : " processes"))
              << std::endl;

  if (!on_slurm) {
    run_locally(sweep, pending, parallel, quiet);
  } else if (!pending.empty()) {
    const bool wait = vm.count("no-wait") == 0;
    const long long job = submit_to_slurm(sweep, pending, slurm, wait, !quiet && isatty(STDERR_FILENO));
    if (!wait) {
      if (!quiet)
        std::cout << "sweep: submitted as Slurm job " << job << "; logs in " << (sweep.path() / "slurm").string()
                  << "; when it ends: sonicsim sweep --collect " << sweep.path().string() << '\n';
      return 0;
    }
    if (!quiet) std::cout << "sweep: Slurm job " << job << " ended" << std::endl;
  }
  return write_table(sweep, quiet, refused_count);
}

}  // namespace sonicsim::cli
