#include "cli/sweep/slurm_array.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <regex>
#include <stdexcept>

namespace sonicsim {

namespace {

// A partition or account name: one word that sbatch cannot take for an option.
void check_name(const char* option, const char* what, const std::optional<std::string>& name) {
  if (!name) return;
  const bool spaced =
      std::any_of(name->begin(), name->end(), [](unsigned char c) { return std::isspace(c) || c < 0x20; });
  if (name->empty() || spaced || name->front() == '-')
    throw std::invalid_argument(std::string(option) + " expects " + what + " (one word, not starting with -), got \"" +
                                *name + "\"");
}

void check_count(const char* option, const char* what, const std::optional<int>& count) {
  if (count && *count < 1) throw std::invalid_argument(std::string(option) + " expects at least 1 " + what);
}

}  // namespace

void check_slurm_options(const SlurmArrayOptions& options) {
  // sbatch(1), --time: "minutes", "minutes:seconds", "hours:minutes:seconds", "days-hours",
  // "days-hours:minutes" and "days-hours:minutes:seconds"; "UNLIMITED" or "INFINITE" for none.
  static const std::regex time_format(R"(\d+(:\d+){0,2}|\d+-\d+(:\d+){0,2}|UNLIMITED|INFINITE)");
  if (options.time_limit && !std::regex_match(*options.time_limit, time_format))
    throw std::invalid_argument(
        "--time expects a Slurm time limit (MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, "
        "DAYS-HOURS[:MINUTES[:SECONDS]]), got \"" +
        *options.time_limit + "\"");
  check_name("--partition", "a partition name", options.partition);
  check_name("--account", "an account name", options.account);
  check_count("--array-parallelism", "task at once", options.array_parallelism);
  check_count("--points-per-task", "point per task", options.points_per_task);
  for (const std::string& option : options.extra)
    if (option.rfind("-", 0) != 0)
      throw std::invalid_argument("--sbatch-option expects an sbatch option such as --qos=short, got \"" + option +
                                  "\"");
}

std::vector<std::vector<int>> array_tasks(const std::vector<int>& pending, int points_per_task) {
  const std::size_t count = pending.size();
  std::size_t per_task = points_per_task > 0 ? static_cast<std::size_t>(points_per_task)
                                             : std::max<std::size_t>(1, (count + kMaxArrayTasks - 1) / kMaxArrayTasks);
  std::vector<std::vector<int>> tasks;
  for (std::size_t first = 0; first < count; first += per_task)
    tasks.emplace_back(pending.begin() + static_cast<std::ptrdiff_t>(first),
                       pending.begin() + static_cast<std::ptrdiff_t>(std::min(count, first + per_task)));
  return tasks;
}

std::vector<std::string> sbatch_arguments(const SlurmArrayOptions& options, int tasks, bool wait,
                                          const std::string& log_dir, const std::string& working_dir,
                                          const std::string& script) {
  std::string array = "--array=0-" + std::to_string(tasks - 1);
  if (options.array_parallelism) array.append(1, '%').append(std::to_string(*options.array_parallelism));
  std::vector<std::string> arguments{"--parsable"};
  if (wait) arguments.push_back("--wait");
  arguments.insert(arguments.end(), {array, "--job-name=sonicsim-sweep", "--output=" + log_dir + "/%A_%a.out",
                                     "--chdir=" + working_dir});
  if (options.partition) arguments.push_back("--partition=" + *options.partition);
  if (options.time_limit) arguments.push_back("--time=" + *options.time_limit);
  if (options.account) arguments.push_back("--account=" + *options.account);
  arguments.insert(arguments.end(), options.extra.begin(), options.extra.end());
  arguments.push_back(script);
  return arguments;
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string array_task_script(const std::string& sonicsim, const std::string& sweep_dir) {
  return "#!/bin/sh\n"
         "# One task of a sonicsim sweep's Slurm job array: it runs the points that slurm/tasks.json lists\n"
         "# for $SLURM_ARRAY_TASK_ID into the sweep's points/ directory.\n"
         "exec " +
         shell_quoted(sonicsim) + " sweep --slurm-task " + shell_quoted(sweep_dir) + "\n";
}

long long parsable_job_id(const std::string& sbatch_output) {
  const std::string first = sbatch_output.substr(0, sbatch_output.find_first_of(";\n"));
  long long id = 0;
  const auto [end, error] = std::from_chars(first.data(), first.data() + first.size(), id);
  if (first.empty() || error != std::errc() || end != first.data() + first.size() || id <= 0)
    throw std::invalid_argument("sbatch printed no job id: \"" + sbatch_output + "\"");
  return id;
}

}  // namespace sonicsim
