// The two parts the recorder owns, driven by hand: the request pool hands out fresh requests with
// consecutive ids and reuses answered ones; the job ledger keeps a batch system's slot (submitted,
// granted, released) apart from a job's run, and a resubmission is a new record. Neither call used
// here reads SimGrid's clock, so no engine is needed.
#include <doctest/doctest.h>

#include <string>

#include "sim/job_ledger.hpp"
#include "sim/request_pool.hpp"

using namespace sonicsim;

TEST_CASE("the request pool reuses a recycled request, reset, with the next id") {
  sim::RequestPool pool;
  sim::InFlightRequest* first = pool.new_request();
  sim::InFlightRequest* second = pool.new_request();
  CHECK(first != second);
  CHECK(first->record.id == 0);
  CHECK(second->record.id == 1);
  first->tries = 5;
  first->answered = true;
  pool.recycle(first);
  sim::InFlightRequest* third = pool.new_request();
  CHECK(third == first);  // the answered object, not a new allocation
  CHECK(third->record.id == 2);
  CHECK(third->tries == 1);  // InFlightRequest's defaults (sim/request.hpp)
  CHECK_FALSE(third->answered);
}

TEST_CASE("a batch system's failed, resubmitted job: its slot's record, then a second record") {
  std::string violation;
  sim::JobLedger ledger(/*threaded=*/false, /*batch_system=*/true, /*threads=*/1, /*static_farm_jobs=*/0, violation);
  ledger.submitted(0, 1.0);
  ledger.submitted(1, 2.0);
  CHECK(ledger.queued() == 2);
  ledger.slot_granted(0, 3, 4.0);
  CHECK(ledger.queued() == 1);
  ledger.event_done(0);
  ledger.run_failed(4.0, 10.0, 1, 2);  // started at 4 s, failed at 10 s after 1 event, holding 2 cores
  ledger.slot_released(0, 10.0, /*failed=*/true, /*resubmitted=*/true);
  ledger.submitted(0, 10.0);
  CHECK(ledger.queued() == 2);
  ledger.event_done(0);          // counted on the job's current run, the resubmission
  CHECK(ledger.running() == 0);  // no run_began: the slots alone run nothing

  SimulationResults results;
  FailureCounts failures;
  ledger.finish(20.0, results, failures);
  CHECK(violation.empty());
  REQUIRE(results.jobs.size() == 3);
  const JobRecord& first_run = results.jobs[0];
  CHECK(first_run.job == 0);
  CHECK(first_run.attempt == 1);
  CHECK(first_run.submit_s == 1.0);
  CHECK(first_run.start_s == 4.0);
  CHECK(first_run.end_s == 10.0);
  CHECK(first_run.node == 3);
  CHECK(first_run.events == 1);
  CHECK(first_run.outcome == JobOutcome::Resubmitted);
  CHECK(results.jobs[1].job == 1);
  CHECK(results.jobs[1].outcome == JobOutcome::Queued);
  const JobRecord& second_run = results.jobs[2];
  CHECK(second_run.job == 0);
  CHECK(second_run.attempt == 2);
  CHECK(second_run.submit_s == 10.0);
  CHECK(second_run.events == 1);
  CHECK(second_run.outcome == JobOutcome::Queued);
  CHECK(failures.jobs_failed == 1);
  CHECK(failures.events_lost == 1);
  CHECK(failures.cpu_lost_s == (10.0 - 4.0) * 2);  // core-seconds held by the failed run
  CHECK(results.job_core_seconds == 0.0);          // no run began
}

TEST_CASE("a static farm's jobs have their records from the start, queued, and no slot") {
  std::string violation;
  sim::JobLedger ledger(/*threaded=*/false, /*batch_system=*/false, /*threads=*/4, /*static_farm_jobs=*/3, violation);
  CHECK(ledger.queued() == 0);  // the batch system's queue: a static farm has none
  SimulationResults results;
  FailureCounts failures;
  ledger.finish(5.0, results, failures);
  REQUIRE(results.jobs.size() == 3);
  for (int j = 0; j < 3; ++j) {
    CHECK(results.jobs[j].job == j);
    CHECK(results.jobs[j].threads == 4);
    CHECK(results.jobs[j].outcome == JobOutcome::Queued);
  }
}
