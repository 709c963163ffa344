#include "models/jobs/job_trace.hpp"

#include <algorithm>

#include "models/io/csv_cells.hpp"
#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"

namespace sonicsim {
namespace {

using TraceReader = io::CSVReader<2, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                                  io::throw_on_overflow, io::single_and_empty_line_comment<'#'>>;

[[noreturn]] void too_many_jobs(const std::string& path, const std::string& where) {
  throw InputError(path, where,
                   "a trace of more than " + std::to_string(limits::kMaxSubmittedJobs) +
                       " jobs, the most sonicsim submits in one run");
}

std::vector<TracedJob> parse_csv_trace(const std::string& text, const std::string& path) {
  std::vector<TracedJob> jobs;
  try {
    TraceReader reader(path, text.data(), text.data() + text.size());
    reader.read_header(io::ignore_extra_column | io::ignore_missing_column, "submit_s", "events");
    if (!reader.has_column("submit_s"))
      throw InputError(path, "line 1", "expected a \"submit_s\" column (seconds from the start of the run)");
    char *submit = nullptr, *events = nullptr;
    while (reader.read_row(submit, events)) {
      const unsigned line = reader.get_file_line();
      if (static_cast<std::int64_t>(jobs.size()) >= limits::kMaxSubmittedJobs)
        too_many_jobs(path, "line " + std::to_string(line));
      TracedJob job;
      job.submit_s = number_cell(path, line, "submit_s", submit);
      if (!(job.submit_s >= 0 && job.submit_s <= limits::kMaxDurationS))
        throw InputError(path, cell_location(line, "submit_s"),
                         "expected a submit time from 0 to 1e8 seconds, got " + std::string(submit));
      if (events && *events) {
        const long long count = integer_cell(path, line, "events", events);
        if (count < 1 || count > limits::kMaxEvents)
          throw InputError(path, cell_location(line, "events"),
                           "expected from 1 to " + std::to_string(limits::kMaxEvents) + " events, got " + events);
        job.events = static_cast<int>(count);
      }
      jobs.push_back(job);
    }
  } catch (const io::error::base& e) {
    rethrow_csv_error(path, e);
  }
  if (jobs.empty()) throw InputError(path, "rows", "expected at least one job");
  return jobs;
}

std::vector<TracedJob> parse_condor_trace(const std::string& text, const std::string& path) {
  const nlohmann::json document = parse_json_text(text, path);
  const JsonNode root(document, "", path);
  if (!document.is_array()) root.fail("expected an array of job ClassAds (condor_history -json)");
  if (static_cast<std::int64_t>(document.size()) > limits::kMaxSubmittedJobs) too_many_jobs(path, "");
  std::vector<double> queued;
  for (const JsonNode& ad : root.elements()) {
    if (!ad.has("QDate")) ad.fail("expected a \"QDate\" (the Unix time the job was submitted)");
    queued.push_back(ad.at("QDate").number_in(0, 1e11));
  }
  if (queued.empty()) root.fail("expected at least one job ClassAd");
  const double first = *std::min_element(queued.begin(), queued.end());
  std::vector<TracedJob> jobs;
  for (std::size_t i = 0; i < queued.size(); ++i) {
    const double submit = queued[i] - first;
    if (submit > limits::kMaxDurationS)
      root.elements()[i].at("QDate").fail("expected a submit time within 1e8 seconds of the first job's");
    jobs.push_back({submit, std::nullopt});
  }
  return jobs;
}

}  // namespace

std::vector<TracedJob> read_job_trace(const std::string& path) {
  return parse_job_trace(read_input_file(path, kMaxLogFileBytes, "line 1"), path);
}

std::vector<TracedJob> parse_job_trace(const std::string& text, const std::string& path) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  std::vector<TracedJob> jobs =
      first != std::string::npos && text[first] == '[' ? parse_condor_trace(text, path) : parse_csv_trace(text, path);
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const TracedJob& a, const TracedJob& b) { return a.submit_s < b.submit_s; });
  return jobs;
}

}  // namespace sonicsim
