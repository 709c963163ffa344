#include "analysis/outputs/result_writers.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/outputs/output_file.hpp"
#include "analysis/outputs/record_rows.hpp"
#include "analysis/summary/job_threads.hpp"
#include "analysis/summary/summary_json.hpp"
#include "analysis/triton/triton_report.hpp"

namespace sonicsim {
namespace {

const char* outcome_name(JobOutcome o) {
  switch (o) {
    case JobOutcome::Queued: return "queued";
    case JobOutcome::Running: return "running";
    case JobOutcome::Done: return "done";
    case JobOutcome::Failed: return "failed";
    case JobOutcome::Resubmitted: return "resubmitted";
  }
  return "?";
}

}  // namespace

// One row per run of a job: a resubmitted job has a row for each submission. A failed run's events
// and core time are lost (cpu_lost_s); a run that did not fail loses nothing. Jobs with threads have
// four more columns: threads, busy thread time, events per second and CPU efficiency, up to the
// run's end for a job still running (empty while queued).
void write_jobs_csv(const std::string& path, const SimulationResults& r) {
  OutputFile f(path);
  f.write("job,run,submit_s,start_s,end_s,queue_wait_s,node,events,outcome,cpu_lost_s");
  f.write(r.header.threaded ? ",threads,busy_thread_s,events_per_s,cpu_efficiency\n" : "\n");
  for (const JobRecord& j : r.jobs) {
    f.printf("%d,%d,%.6f,", j.job, j.attempt, j.submit_s);
    const bool ended =
        j.outcome == JobOutcome::Done || j.outcome == JobOutcome::Failed || j.outcome == JobOutcome::Resubmitted;
    if (j.outcome == JobOutcome::Queued) {
      f.write(",,,,");
    } else {
      f.printf("%.6f,", j.start_s);
      if (ended) f.printf("%.6f", j.end_s);
      f.printf(",%.6f,%s", j.start_s - j.submit_s,
               csv_field(r.header.worker_names[static_cast<std::size_t>(j.node)]).c_str());
    }
    const bool lost = j.outcome == JobOutcome::Failed || j.outcome == JobOutcome::Resubmitted;
    f.printf(",%d,%s,%.6f", j.events, outcome_name(j.outcome), lost ? (j.end_s - j.start_s) * j.threads : 0.0);
    if (!r.header.threaded) {
      f.write("\n");
    } else if (j.outcome == JobOutcome::Queued) {
      f.printf(",%d,,,\n", j.threads);
    } else {
      const JobRates rates = job_rates(j, r.end_s);
      f.printf(",%d,%.6f,%.6f,%.6f\n", j.threads, j.busy_thread_s, rates.events_per_s, rates.cpu_efficiency);
    }
  }
  f.close();
}

// Jobs with threads have two more columns: the event's stream and its waits for a thread.
void write_events_csv(const std::string& path, const SimulationResults& r) {
  OutputFile f(path);
  f.write(
      "job,event,start_s,end_s,time_s,cpu_s,preprocess_s,cpu_fallback_s,inference_s,network_s,frontend_s,"
      "queue_s,");
  f.printf("%s_s,requests,rejected_requests", device_words(r.header.device_naming).key);
  f.write(r.header.threaded ? ",stream,thread_wait_s\n" : "\n");
  for (const EventRecord& e : r.events) {
    f.printf("%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%d", e.job, e.event, e.start_s, e.end_s,
             e.time_s(), e.cpu_s, e.preprocess_s, e.fallback_s, e.inference_s, e.network_s, e.frontend_s, e.queue_s,
             e.gpu_s, e.requests, e.rejected_requests);
    if (r.header.threaded)
      f.printf(",%d,%.6f\n", e.stream, e.thread_wait_s);
    else
      f.write("\n");
  }
  f.close();
}

void write_requests_csv(const std::string& path, const SimulationResults& r) {
  OutputFile f(path);
  const RecordNames names = record_names(r);
  f.write(request_columns(names));
  for (const RequestRecord& q : r.requests) write_request_row(f, q, names);
  f.close();
}

void write_batches_csv(const std::string& path, const SimulationResults& r) {
  OutputFile f(path);
  const RecordNames names = record_names(r);
  f.write(batch_columns(names));
  for (const BatchRecord& b : r.batches) write_batch_row(f, b, names);
  f.close();
}

// One row per Prometheus scrape; a metric with no value yet is an empty field.
void write_timeseries_csv(const std::string& path, const SimulationResults& r) {
  OutputFile f(path);
  f.printf(
      "time_s,pending,starting,ready,draining,desired,metric,requests_per_s,queue_ms,%s_utilization,"
      "jobs_running,jobs_queued,jobs_gated\n",
      device_words(r.header.device_naming).key);
  auto field = [&f](const std::optional<double>& x) {
    if (x) f.printf("%.6g", *x);
    f.write(",");
  };
  for (const TimeseriesRow& row : r.scrapes->timeseries) {
    f.printf("%.3f,%d,%d,%d,%d,%d,", row.t_s, row.pending, row.starting, row.ready, row.draining, row.desired);
    field(row.metric);
    field(row.requests_per_s);
    field(row.queue_ms);
    field(row.gpu_utilization);
    f.printf("%lld,%lld,%lld\n", static_cast<long long>(row.jobs_running), static_cast<long long>(row.jobs_queued),
             static_cast<long long>(row.jobs_gated));
  }
  f.close();
}

void write_results(const std::string& directory, const SimulationResults& results, const Summary& summary,
                   const Outputs& outputs) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw std::runtime_error(directory + ": cannot create the output directory: " + ec.message());
  const std::filesystem::path dir(directory);
  write_file((dir / "summary.json").string(), summary_to_json(summary).dump(2) + '\n');
  if (outputs.events) write_events_csv((dir / "events.csv").string(), results);
  if (outputs.requests) write_requests_csv((dir / "requests.csv").string(), results);
  if (outputs.batches) write_batches_csv((dir / "batches.csv").string(), results);
  if (outputs.jobs && (results.header.batch_system || results.header.threaded))
    write_jobs_csv((dir / "jobs.csv").string(), results);
  if (outputs.timeseries && results.scrapes) write_timeseries_csv((dir / "timeseries.csv").string(), results);
  if (outputs.metrics) {
    for (std::size_t server = 0; server < results.header.server_names.size(); ++server) {
      const auto path = dir / ("metrics-" + results.header.server_names[server] + ".prom");
      write_file(path.string(), triton_prometheus_text(results, summary, static_cast<int>(server)));
    }
  }
}

}  // namespace sonicsim
