// How a sweep is handed to Slurm: array tasks, sbatch's arguments, the task script, sbatch's answer.
#include <doctest/doctest.h>

#include <stdexcept>

#include "cli/sweep/slurm_array.hpp"

using namespace sonicsim;
using Tasks = std::vector<std::vector<int>>;
using Words = std::vector<std::string>;

TEST_CASE("pending points go to array tasks in consecutive groups, at most 1000 tasks by default") {
  CHECK(array_tasks({3, 5, 6, 9, 10}, 2) == Tasks{{3, 5}, {6, 9}, {10}});
  CHECK(array_tasks({3, 5, 6}, 0) == Tasks{{3}, {5}, {6}});
  CHECK(array_tasks({}, 0).empty());
  std::vector<int> many(2500);
  for (int i = 0; i < 2500; ++i) many[static_cast<std::size_t>(i)] = i;
  const Tasks grouped = array_tasks(many, 0);
  CHECK(grouped.size() == 834);  // ceil(2500 / 1000) = 3 points a task; ceil(2500 / 3) tasks
  CHECK(grouped.front() == std::vector<int>{0, 1, 2});
  CHECK(grouped.back() == std::vector<int>{2499});
  CHECK(array_tasks(std::vector<int>(many.begin(), many.begin() + 1000), 0).size() == 1000);
}

TEST_CASE("sbatch gets the array, the logs, the working directory and the site's options") {
  SlurmArrayOptions options;
  CHECK(sbatch_arguments(options, 20, true, "/d/slurm", "/home/u", "/d/slurm/task.sh") ==
        Words{"--parsable", "--wait", "--array=0-19", "--job-name=sonicsim-sweep", "--output=/d/slurm/%A_%a.out",
              "--chdir=/home/u", "/d/slurm/task.sh"});
  options.partition = "cpu";
  options.time_limit = "2:00:00";
  options.account = "cms";
  options.array_parallelism = 50;
  options.extra = {"--qos=short"};
  CHECK(sbatch_arguments(options, 1, false, "/d/slurm", "/w", "/d/slurm/task.sh") ==
        Words{"--parsable", "--array=0-0%50", "--job-name=sonicsim-sweep", "--output=/d/slurm/%A_%a.out", "--chdir=/w",
              "--partition=cpu", "--time=2:00:00", "--account=cms", "--qos=short", "/d/slurm/task.sh"});
}

TEST_CASE("options Slurm would refuse or misread are one message naming the option") {
  for (const char* time : {"30", "30:00", "2:00:00", "1-12", "1-12:30", "1-12:30:00", "UNLIMITED"}) {
    SlurmArrayOptions options;
    options.time_limit = time;
    CHECK_NOTHROW(check_slurm_options(options));
  }
  for (const char* time : {"2h", "1:2:3:4", "-5", "1-", "30 "}) {
    SlurmArrayOptions options;
    options.time_limit = time;
    CHECK_THROWS_WITH_AS(check_slurm_options(options), doctest::Contains("--time expects a Slurm time limit"),
                         std::invalid_argument);
  }
  SlurmArrayOptions spaced;
  spaced.partition = "gpu cpu";
  CHECK_THROWS_WITH_AS(check_slurm_options(spaced), doctest::Contains("--partition"), std::invalid_argument);
  for (const char* name : {"", "--no-wait", "-p"}) {
    SlurmArrayOptions options;
    options.account = name;
    CHECK_THROWS_WITH_AS(check_slurm_options(options), doctest::Contains("--account expects an account name"),
                         std::invalid_argument);
  }
  SlurmArrayOptions none_at_once;
  none_at_once.array_parallelism = 0;
  CHECK_THROWS_WITH_AS(check_slurm_options(none_at_once), doctest::Contains("--array-parallelism"),
                       std::invalid_argument);
  SlurmArrayOptions bare;
  bare.extra = {"qos=short"};
  CHECK_THROWS_WITH_AS(check_slurm_options(bare), doctest::Contains("--sbatch-option"), std::invalid_argument);
}

TEST_CASE("the task script runs sonicsim on the sweep directory, quoted for the shell") {
  CHECK(shell_quoted("plain") == "'plain'");
  CHECK(shell_quoted("it's $HOME") == R"('it'\''s $HOME')");
  const std::string script = array_task_script("/opt/sonic sim/sonicsim", "/data/o'brien/sweep");
  CHECK(script.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(script.find("\nexec '/opt/sonic sim/sonicsim' sweep --slurm-task '/data/o'\\''brien/sweep'\n") !=
        std::string::npos);
}

TEST_CASE("sbatch --parsable answers the job id, with the cluster after a semicolon") {
  CHECK(parsable_job_id("4242\n") == 4242);
  CHECK(parsable_job_id("4242;cluster-a\n") == 4242);
  CHECK_THROWS_WITH_AS(parsable_job_id("sbatch: error: invalid partition"), doctest::Contains("no job id"),
                       std::invalid_argument);
  CHECK_THROWS_AS(parsable_job_id(""), std::invalid_argument);
}
