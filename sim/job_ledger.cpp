#include "sim/job_ledger.hpp"

#include <algorithm>
#include <utility>

#include <simgrid/s4u.hpp>

#include "analysis/invariants.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

JobLedger::JobLedger(bool threaded, bool batch_system, int threads, int static_farm_jobs, std::string& first_violation)
    : threaded_(threaded), batch_system_(batch_system), threads_(threads), first_violation_(&first_violation) {
  const auto jobs = static_cast<std::size_t>(std::max(0, static_farm_jobs));
  job_record_.resize(jobs);
  for (std::size_t j = 0; j < jobs; ++j) {
    job_record_[j] = j;
    new_job_record(static_cast<int>(j), 0);
  }
}

JobRecord& JobLedger::new_job_record(int job, double submit_s) {
  if (threaded_) threads_busy_.emplace_back();
  JobRecord& record = jobs_.emplace_back();
  record.job = job;
  record.submit_s = submit_s;
  record.threads = threads_;
  return record;
}

void JobLedger::submitted(int job, double now) {
  const auto j = static_cast<std::size_t>(job);
  const bool resubmission = j < job_record_.size();
  if (!resubmission && j != job_record_.size() && first_violation_->empty())
    *first_violation_ =
        invariant_broken(Invariant::JobsSubmittedInOrder, "job " + std::to_string(job) + " was submitted out of order");
  const int attempt = resubmission ? jobs_[job_record_[j]].attempt + 1 : 1;
  if (!resubmission) job_record_.resize(j + 1);  // one more, or (out of order, INV-12) enough to hold it
  job_record_[j] = jobs_.size();
  new_job_record(job, now).attempt = attempt;
  ++jobs_queued_;
}

void JobLedger::placed(int job, int node) { jobs_[job_record_[static_cast<std::size_t>(job)]].node = node; }

void JobLedger::slot_granted(int job, int node, double now) {
  JobRecord& record = jobs_[job_record_[static_cast<std::size_t>(job)]];
  record.start_s = now;
  record.node = node;
  record.outcome = JobOutcome::Running;
  --jobs_queued_;
}

void JobLedger::slot_released(int job, double now, bool failed, bool resubmitted) {
  const std::size_t index = job_record_[static_cast<std::size_t>(job)];
  if (threaded_) stop_busy_threads(index, now);
  JobRecord& record = jobs_[index];
  record.end_s = now;
  record.outcome = !failed ? JobOutcome::Done : resubmitted ? JobOutcome::Resubmitted : JobOutcome::Failed;
}

void JobLedger::run_failed(double start_s, double now, int events, int cores) {
  ++jobs_failed_;
  events_lost_ += events;
  cpu_lost_s_ += (now - start_s) * cores;
}

void JobLedger::thread_busy(int job, bool busy) {
  const std::size_t index = job_record_[static_cast<std::size_t>(job)];
  count_busy_threads(index, sg4::Engine::get_clock());
  threads_busy_[index].busy += busy ? 1 : -1;
}

// The busy thread-seconds of a job run since the last count.
void JobLedger::count_busy_threads(std::size_t record, double now) {
  ThreadsBusy& b = threads_busy_[record];
  jobs_[record].busy_thread_s += b.busy * (now - b.since);
  b.since = now;
}

// A job run ended: a failed job's streams stopped where they were, computing or not.
void JobLedger::stop_busy_threads(std::size_t record, double now) {
  count_busy_threads(record, now);
  threads_busy_[record].busy = 0;
}

void JobLedger::run_began(int job, int cores) {
  const double now = sg4::Engine::get_clock();
  count_job_cores(now);
  ++jobs_running_;
  cores_running_ += cores;
  if (const auto j = static_cast<std::size_t>(job); !batch_system_ && j < job_record_.size()) {
    JobRecord& record = jobs_[job_record_[j]];
    record.submit_s = record.start_s = now;
    record.outcome = JobOutcome::Running;
  }
}

void JobLedger::run_finished(int job, bool failed, int cores) {
  const double now = sg4::Engine::get_clock();
  count_job_cores(now);
  --jobs_running_;
  cores_running_ -= cores;
  if (const auto j = static_cast<std::size_t>(job); !batch_system_ && j < job_record_.size()) {
    JobRecord& record = jobs_[job_record_[j]];
    record.end_s = now;
    record.outcome = failed ? JobOutcome::Failed : JobOutcome::Done;
    if (threaded_) stop_busy_threads(job_record_[j], now);
  }
}

// The cores the running jobs held since the last count.
void JobLedger::count_job_cores(double now) {
  job_core_seconds_ += static_cast<double>(cores_running_) * (now - jobs_counted_to_s_);
  jobs_counted_to_s_ = now;
}

void JobLedger::finish(double end_s, SimulationResults& results, FailureCounts& failures) {
  count_job_cores(end_s);
  for (std::size_t record = 0; record < threads_busy_.size(); ++record) count_busy_threads(record, end_s);
  results.jobs = std::move(jobs_);
  results.job_core_seconds = job_core_seconds_;
  failures.jobs_failed = jobs_failed_;
  failures.events_lost = events_lost_;
  failures.cpu_lost_s = cpu_lost_s_;
}

}  // namespace sonicsim::sim
