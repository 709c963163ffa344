#include "cli/sweep/slurm_sweep.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "cli/processes/external_command.hpp"
#include "cli/processes/process_pool.hpp"
#include "cli/progress_line.hpp"
#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/message_text.hpp"

namespace sonicsim::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path slurm_dir(const fs::path& sweep_dir) { return sweep_dir / "slurm"; }
fs::path submission_file(const fs::path& sweep_dir) { return slurm_dir(sweep_dir) / "submission.json"; }

struct Submission {
  std::optional<long long> job_id;
  std::vector<std::vector<int>> tasks;
};

json to_json(const Submission& s) {
  return {{"job_id", s.job_id ? json(*s.job_id) : json(nullptr)}, {"tasks", s.tasks}};
}

std::optional<Submission> read_submission(const fs::path& sweep_dir) {
  const fs::path file = submission_file(sweep_dir);
  if (!fs::exists(file)) return std::nullopt;
  const json document = read_json_file(file.string(), kMaxLogFileBytes);
  const JsonNode root(document, "", file.string());
  root.allow_only({"job_id", "tasks"});
  Submission s;
  if (!root.at("job_id").raw().is_null()) s.job_id = root.at("job_id").integer_at_least(1);
  for (const JsonNode& task : root.at("tasks").elements()) {
    s.tasks.emplace_back();
    for (const JsonNode& point : task.elements()) s.tasks.back().push_back(point.int_at_least(0));
  }
  return s;
}

std::string file_text(const fs::path& file) {
  try {
    return one_line(read_input_file(file.string(), 1 << 16));
  } catch (const std::exception&) {
    return "";
  }
}

// Array tasks of `job` that squeue shows running.
int running_tasks(long long job) {
  try {
    const CommandOutput out = run_external(
        {"squeue", "--noheader", "--array", "--states=RUNNING", "--format=%i", "--jobs=" + std::to_string(job)});
    if (out.exit_code != 0) return 0;
    return static_cast<int>(std::count(out.output.begin(), out.output.end(), '\n'));
  } catch (const std::runtime_error&) {
    return 0;
  }
}

// Interrupting the wait leaves the job running (sbatch --wait does not cancel it): say so.
char interrupt_note[1024];
std::size_t interrupt_note_length = 0;

extern "C" void note_interrupt(int signal_number) {
  if (write(STDERR_FILENO, interrupt_note, interrupt_note_length) < 0) {
  }
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

void note_on_interrupt(long long job, const fs::path& dir) {
  const std::string note = "\nsonicsim: Slurm job " + std::to_string(job) +
                           " goes on; rerun the sweep to wait for it again, "
                           "or sonicsim sweep --collect " +
                           dir.string() + " for the points done so far\n";
  interrupt_note_length = std::min(note.size(), sizeof interrupt_note);
  std::copy_n(note.data(), interrupt_note_length, interrupt_note);
  struct sigaction action {};
  action.sa_handler = note_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// Until `ended()`, draws how far the job has got: the points' files say which are done, squeue how
// many tasks run.
void watch_points(const SweepDirectory& sweep, const std::vector<int>& pending, long long job, int points_per_task,
                  bool show_progress, const std::function<bool()>& ended) {
  const int total = static_cast<int>(sweep.points().size());
  const int done_before = total - static_cast<int>(pending.size());
  ProgressLine progress("points", total, done_before, show_progress);
  int running = 0;
  for (int tick = 0; !ended(); ++tick) {
    if (show_progress) {
      int done = done_before, failed = 0;
      for (int point : pending) {
        if (fs::exists(sweep.point_file(point, "json")))
          ++done;
        else if (sweep.failed_point(point))
          ++done, ++failed;
      }
      if (tick % 5 == 0) running = running_tasks(job) * std::max(1, points_per_task);
      progress.update(done, std::min(running, total - done), failed);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(show_progress ? 1000 : 400));
  }
}

}  // namespace

long long submit_to_slurm(const SweepDirectory& sweep, const std::vector<int>& pending,
                          const SlurmArrayOptions& options, bool wait, bool show_progress) {
  const fs::path dir = fs::absolute(sweep.path());
  fs::create_directories(slurm_dir(dir));
  Submission submission{std::nullopt, array_tasks(pending, options.points_per_task.value_or(0))};
  write_atomically(submission_file(dir), to_json(submission).dump() + "\n");
  const fs::path script = slurm_dir(dir) / "task.sh";
  write_atomically(script, array_task_script(fs::read_symlink("/proc/self/exe").string(), dir.string()));
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);

  std::vector<std::string> command{"sbatch"};
  const auto arguments = sbatch_arguments(options, static_cast<int>(submission.tasks.size()), wait,
                                          slurm_dir(dir).string(), fs::current_path().string(), script.string());
  command.insert(command.end(), arguments.begin(), arguments.end());
  const fs::path sbatch_errors = slurm_dir(dir) / "sbatch.err";
  RunningCommand sbatch(command, sbatch_errors.string());
  const std::string first_line = sbatch.read_line();
  if (first_line.empty()) {
    const int code = sbatch.wait();
    throw std::runtime_error("sbatch did not take the sweep (exit " + std::to_string(code) +
                             "): " + file_text(sbatch_errors));
  }
  submission.job_id = parsable_job_id(first_line);
  write_atomically(submission_file(dir), to_json(submission).dump() + "\n");
  const long long job = *submission.job_id;
  if (!wait) return job;

  note_on_interrupt(job, sweep.path());
  // sbatch --wait returns when every array task has ended.
  watch_points(sweep, pending, job, static_cast<int>(submission.tasks.front().size()), show_progress,
               [&] { return sbatch.exit_code().has_value(); });
  return job;
}

void wait_for_slurm_job(const SweepDirectory& sweep, long long job, bool show_progress) {
  note_on_interrupt(job, sweep.path());
  const auto submission = read_submission(sweep.path());
  std::vector<int> pending;
  for (int point = 0; point < static_cast<int>(sweep.points().size()); ++point)
    if (!sweep.finished_point(point)) pending.push_back(point);
  const int per_task =
      submission && !submission->tasks.empty() ? static_cast<int>(submission->tasks.front().size()) : 1;
  int tick = 0;
  watch_points(sweep, pending, job, per_task, show_progress, [&] {
    return ++tick % 5 == 0 && !active_slurm_job(sweep.path());  // squeue every few seconds is enough
  });
}

std::optional<long long> active_slurm_job(const fs::path& sweep_dir) {
  const auto submission = read_submission(sweep_dir);
  if (!submission || !submission->job_id) return std::nullopt;
  try {
    const CommandOutput out =
        run_external({"squeue", "--noheader", "--format=%i", "--jobs=" + std::to_string(*submission->job_id)});
    if (out.exit_code == 0 && out.output.find_first_not_of(" \n") != std::string::npos) return submission->job_id;
  } catch (const std::runtime_error&) {  // no squeue here: no Slurm job can be running this sweep from here
  }
  return std::nullopt;
}

std::string slurm_missing_reason(const fs::path& sweep_dir, int point) {
  const auto submission = read_submission(sweep_dir);
  if (!submission || !submission->job_id) return "did not run";
  const long long job = *submission->job_id;
  for (std::size_t t = 0; t < submission->tasks.size(); ++t) {
    const auto& points = submission->tasks[t];
    if (std::find(points.begin(), points.end(), point) == points.end()) continue;
    const fs::path log = slurm_dir(fs::absolute(sweep_dir)) / (std::to_string(job) + "_" + std::to_string(t) + ".out");
    if (active_slurm_job(sweep_dir))
      return "not run yet: Slurm job " + std::to_string(job) + " is still running (array task " + std::to_string(t) +
             ")";
    const std::string task = "Slurm job " + std::to_string(job) + ", array task " + std::to_string(t);
    if (!fs::exists(log)) return "did not run: " + task + " never started (cancelled, or the job ended first)";
    return "did not run: " + task + " ended without its result (log: " + log.string() + ")";
  }
  return "did not run";
}

int run_slurm_task(const fs::path& sweep_dir) {
  const char* task_id = std::getenv("SLURM_ARRAY_TASK_ID");
  if (!task_id)
    throw std::invalid_argument("--slurm-task runs inside a Slurm array task (SLURM_ARRAY_TASK_ID is not set)");
  const SweepDirectory sweep = SweepDirectory::open(sweep_dir);
  const auto submission = read_submission(sweep_dir);
  if (!submission) throw std::invalid_argument(submission_file(sweep_dir).string() + " is missing");
  const std::size_t task = std::stoul(task_id);
  if (task >= submission->tasks.size())
    throw std::invalid_argument("array task " + std::string(task_id) + " is not in " +
                                submission_file(sweep_dir).string());
  std::vector<int> points;
  for (int point : submission->tasks[task])
    if (point < static_cast<int>(sweep.points().size()) && !sweep.finished_point(point)) points.push_back(point);

  if (!sweep.scenario_unchanged()) {
    for (int point : points)
      sweep.record_failure(point,
                           "the scenario file " + sweep.scenario_path() + " changed after the sweep was submitted");
    return 0;
  }
  const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
  const int parallel = cpus ? std::clamp(std::atoi(cpus), 1, 1024) : 1;
  run_in_processes(
      points, parallel, [&](int point) { sweep.run_point(point); },
      [&](const TaskOutcome& outcome) {
        if (!outcome.ok) sweep.record_failure(outcome.task, outcome.error);
        std::cout << "point " << outcome.task << (outcome.ok ? ": ok" : ": failed: " + outcome.error) << std::endl;
      });
  return 0;
}

}  // namespace sonicsim::cli
