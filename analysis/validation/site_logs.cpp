#include "analysis/validation/site_logs.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/csv_cells.hpp"
#include "models/json_reader.hpp"

namespace sonicsim::validation {
namespace {

// "2022-05-01T12:00:03.25Z" or with an offset "+02:00": seconds since the Unix epoch.
std::optional<double> iso8601_seconds(const std::string& text) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec, &consumed) != 6)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  double seconds = static_cast<double>(timegm(&tm));
  std::size_t pos = static_cast<std::size_t>(consumed);
  if (pos < text.size() && text[pos] == '.') {
    std::size_t end = pos + 1;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == pos + 1) return std::nullopt;
    seconds += std::stod("0" + text.substr(pos, end - pos));
    pos = end;
  }
  if (pos < text.size() && text[pos] == 'Z') return pos + 1 == text.size() ? std::optional(seconds) : std::nullopt;
  int hours = 0, minutes = 0;
  char sign = 0;
  if (pos < text.size() && std::sscanf(text.c_str() + pos, "%c%2d:%2d", &sign, &hours, &minutes) == 3 &&
      (sign == '+' || sign == '-') && pos + 6 == text.size())
    return seconds - (sign == '+' ? 1 : -1) * (hours * 3600.0 + minutes * 60.0);
  return std::nullopt;
}

using EventReader = io::CSVReader<7, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>, io::throw_on_overflow,
                                  io::single_and_empty_line_comment<'#'>>;

}  // namespace

std::vector<LoggedEvent> read_event_log(const std::string& path) {
  if (!std::ifstream(path)) throw InputError(path, "line 1", "cannot open the file");
  std::vector<LoggedEvent> events;
  try {
    EventReader reader(path);
    reader.read_header(io::ignore_extra_column | io::ignore_missing_column, "job", "event", "start_s", "end_s", "start",
                       "end", "cpu_type");
    for (const char* required : {"job", "event"})
      if (!reader.has_column(required))
        throw InputError(path, "line 1", std::string("expected a \"") + required + "\" column");
    const bool seconds = reader.has_column("start_s") && reader.has_column("end_s");
    if (!seconds && !(reader.has_column("start") && reader.has_column("end")))
      throw InputError(path, "line 1", "expected the columns start_s,end_s (seconds) or start,end (ISO 8601 times)");
    char *job = nullptr, *event = nullptr, *start_s = nullptr, *end_s = nullptr, *start = nullptr, *end = nullptr,
         *cpu = nullptr;
    while (reader.read_row(job, event, start_s, end_s, start, end, cpu)) {
      const unsigned line = reader.get_file_line();
      LoggedEvent e;
      e.job = job;
      e.event = integer_cell(path, line, "event", event);
      if (seconds) {
        e.start_s = number_cell(path, line, "start_s", start_s);
        e.end_s = number_cell(path, line, "end_s", end_s);
      } else {
        const auto parse = [&](const char* column, const char* text) {
          const auto t = iso8601_seconds(text);
          if (!t)
            throw InputError(path, cell_location(line, column),
                             "expected an ISO 8601 time like 2022-05-01T12:00:03Z, got \"" + std::string(text) + "\"");
          return *t;
        };
        e.start_s = parse("start", start);
        e.end_s = parse("end", end);
      }
      if (e.end_s < e.start_s)
        throw InputError(path, cell_location(line, seconds ? "end_s" : "end"), "expected an end no earlier than the start");
      if (cpu) e.cpu_type = cpu;
      events.push_back(std::move(e));
    }
  } catch (const io::error::base& e) {
    rethrow_csv_error(path, e);
  }
  if (events.empty()) throw InputError(path, "rows", "expected at least one event");
  return events;
}

std::vector<LoggedJob> read_condor_history(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const JsonNode root(document, "", path);
  if (!document.is_array()) root.fail("expected an array of job ClassAds (condor_history -json)");
  std::vector<LoggedJob> jobs;
  for (const JsonNode& ad : root.elements()) {
    const auto number = [&](const char* key) -> std::optional<double> {
      if (auto v = ad.find(key)) return v->number();
      return std::nullopt;
    };
    const auto completion = number("CompletionDate");
    if (!completion || *completion <= 0) continue;  // not finished
    LoggedJob job;
    const auto cluster = number("ClusterId"), proc = number("ProcId");
    if (!cluster) ad.fail("expected a \"ClusterId\"");
    std::ostringstream id;
    id << static_cast<long long>(*cluster) << '.' << static_cast<long long>(proc.value_or(0));
    job.id = id.str();
    job.end_s = *completion;
    job.start_s = number("JobCurrentStartDate").value_or(number("JobStartDate").value_or(0));
    if (const auto wall = number("RemoteWallClockTime"))
      job.wall_s = *wall;
    else if (job.start_s > 0)
      job.wall_s = job.end_s - job.start_s;
    else
      ad.fail("expected \"RemoteWallClockTime\", or \"JobCurrentStartDate\" with \"CompletionDate\"");
    if (!(job.wall_s >= 0)) ad.fail("expected a non-negative wall-clock time");
    job.cpu_s = number("RemoteUserCpu").value_or(0) + number("RemoteSysCpu").value_or(0);
    for (const char* key : {"LastRemoteHost", "RemoteHost"})
      if (auto host = ad.find(key); host && job.machine.empty()) job.machine = host->string();
    jobs.push_back(job);
  }
  if (jobs.empty()) root.fail("expected at least one completed job (with a CompletionDate)");
  return jobs;
}

TritonScrape read_prometheus_scrape(const std::string& path, std::optional<double> time_s) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "line 1", "cannot open the file");
  TritonScrape scrape;
  scrape.path = path;
  std::optional<double> stamped;
  double gpu_sum = 0;
  int gpus = 0;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const auto brace = line.find('{');
    const auto space = line.find(' ', brace == std::string::npos ? 0 : line.find('}', brace));
    if (space == std::string::npos)
      throw InputError(path, "line " + std::to_string(number), "expected \"name{labels} value [timestamp]\"");
    const std::string name = line.substr(0, std::min(brace, space));
    std::istringstream rest(line.substr(space + 1));
    double value = 0;
    if (!(rest >> value))
      throw InputError(path, "line " + std::to_string(number), "expected a sample value after \"" + name + "\"");
    if (long long ms = 0; rest >> ms) stamped = std::max(stamped.value_or(0), ms / 1000.0);
    if (name == "nv_inference_request_success") scrape.success += value;
    else if (name == "nv_inference_request_failure") scrape.failure += value;
    else if (name == "nv_inference_count") scrape.inferences += value;
    else if (name == "nv_inference_exec_count") scrape.executions += value;
    else if (name == "nv_inference_queue_duration_us") scrape.queue_us += value;
    else if (name == "nv_inference_request_duration_us") scrape.request_us += value;
    else if (name == "nv_inference_compute_infer_duration_us") scrape.compute_infer_us += value;
    else if (name == "nv_gpu_utilization") {
      gpu_sum += value;
      ++gpus;
    }
  }
  if (gpus > 0) scrape.gpu_utilization = gpu_sum / gpus;
  if (stamped)
    scrape.time_s = *stamped;
  else if (time_s)
    scrape.time_s = *time_s;
  else
    throw InputError(path, "line 1", "expected timestamps on the samples, or the scrape time given as " + path + "@SECONDS");
  return scrape;
}

TritonWindow triton_window(std::vector<TritonScrape> scrapes) {
  std::sort(scrapes.begin(), scrapes.end(), [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  if (scrapes.size() < 2 || scrapes.back().time_s <= scrapes.front().time_s)
    throw std::invalid_argument("Triton metrics need at least two scrapes at different times (counters are cumulative)");
  const TritonScrape &first = scrapes.front(), &last = scrapes.back();
  TritonWindow w;
  w.seconds = last.time_s - first.time_s;
  const double requests = last.success - first.success;
  w.requests_per_s = requests / w.seconds;
  w.inferences_per_s = (last.inferences - first.inferences) / w.seconds;
  const double executions = last.executions - first.executions;
  w.mean_batch = executions > 0 ? (last.inferences - first.inferences) / executions : 0;
  w.queue_per_request_s = requests > 0 ? (last.queue_us - first.queue_us) * 1e-6 / requests : 0;
  double sum = 0;
  int n = 0;
  for (const auto& s : scrapes)
    if (s.gpu_utilization) sum += *s.gpu_utilization, ++n;
  if (n > 0) w.gpu_utilization = sum / n;
  return w;
}

}  // namespace sonicsim::validation
