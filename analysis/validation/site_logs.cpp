#include "analysis/validation/site_logs.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <map>
#include <sstream>
#include <utility>

#include "models/io/csv_cells.hpp"
#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::validation {
namespace {

// The digits text[pos, pos + n) as a number, or -1 if they are not all digits.
int digits(const std::string& text, std::size_t pos, std::size_t n) {
  if (pos + n > text.size()) return -1;
  int value = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

// An RFC 3339 time (ISO 8601's Internet profile), e.g. "2022-05-01T12:00:03.25Z" or with an offset
// "+02:00": seconds since the Unix epoch. Every field is range-checked (no 13th month, no 31 April).
std::optional<double> iso8601_seconds(const std::string& text) {
  const int year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  const int hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59 || text[4] != '-' || text[7] != '-' || text[13] != ':' || text[16] != ':' ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' '))
    return std::nullopt;
  static constexpr int kDaysIn[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (day > kDaysIn[month - 1] + (month == 2 && leap(year) ? 1 : 0)) return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900, tm.tm_mon = month - 1, tm.tm_mday = day;
  tm.tm_hour = hour, tm.tm_min = minute, tm.tm_sec = second;
  double seconds = static_cast<double>(timegm(&tm));
  std::size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    std::size_t end = pos + 1;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == pos + 1 || end - pos > 16) return std::nullopt;
    seconds += std::stod("0" + text.substr(pos, end - pos));
    pos = end;
  }
  if (pos + 1 == text.size() && (text[pos] == 'Z' || text[pos] == 'z')) return seconds;
  const int offset_hours = digits(text, pos + 1, 2), offset_minutes = digits(text, pos + 4, 2);
  if (pos + 6 != text.size() || (text[pos] != '+' && text[pos] != '-') || text[pos + 3] != ':' || offset_hours < 0 ||
      offset_hours > 23 || offset_minutes < 0 || offset_minutes > 59)
    return std::nullopt;
  return seconds - (text[pos] == '+' ? 1 : -1) * (offset_hours * 3600.0 + offset_minutes * 60.0);
}

// Digits after the decimal point of a number as written ("12.500" has 3), up to an exponent.
int fractional_digits(const char* text) {
  const char* point = std::strchr(text, '.');
  if (!point) return 0;
  int digits = 0;
  for (const char* c = point + 1; std::isdigit(static_cast<unsigned char>(*c)); ++c) ++digits;
  return digits;
}

using EventReader = io::CSVReader<7, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                                  io::throw_on_overflow, io::single_and_empty_line_comment<'#'>>;

}  // namespace

double at_resolution(double seconds, int decimals) {
  const std::string text = printf_string("%.*f", std::clamp(decimals, 0, 17), seconds);
  double value = seconds;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

std::vector<LoggedEvent> read_event_log(const std::string& path) {
  return parse_event_log(read_input_file(path, kMaxLogFileBytes, "line 1"), path);
}

std::vector<LoggedEvent> parse_event_log(const std::string& text, const std::string& path) {
  std::vector<LoggedEvent> events;
  try {
    EventReader reader(path, text.data(), text.data() + text.size());
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
        e.decimals = std::max(fractional_digits(start_s), fractional_digits(end_s));
      } else {
        e.decimals = std::max(fractional_digits(start), fractional_digits(end));
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
      for (const auto& [column, t] :
           {std::pair{seconds ? "start_s" : "start", e.start_s}, {seconds ? "end_s" : "end", e.end_s}})
        if (!(std::abs(t) <= limits::kMaxLogTimeS))
          throw InputError(
              path, cell_location(line, column),
              printf_string("expected a time of %s %g s (Unix seconds, or seconds from the log's start), got %g",
                            t > 0 ? "at most" : "at least", t > 0 ? limits::kMaxLogTimeS : -limits::kMaxLogTimeS, t));
      if (e.end_s < e.start_s)
        throw InputError(path, cell_location(line, seconds ? "end_s" : "end"),
                         "expected an end no earlier than the start");
      if (!(e.time_s() <= limits::kMaxDurationS))
        throw InputError(
            path, cell_location(line, seconds ? "end_s" : "end"),
            printf_string("expected an event of at most %g s (the longest run sonicsim simulates), got %g s",
                          limits::kMaxDurationS, e.time_s()));
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
  return parse_condor_history(read_input_file(path, kMaxLogFileBytes), path);
}

std::vector<LoggedJob> parse_condor_history(const std::string& text, const std::string& path) {
  const nlohmann::json document = parse_json_text(text, path);
  const JsonNode root(document, "", path);
  if (!document.is_array()) root.fail("expected an array of job ClassAds (condor_history -json)");
  std::vector<LoggedJob> jobs;
  for (const JsonNode& ad : root.elements()) {
    const auto number = [&](const char* key) -> std::optional<double> {
      if (auto v = ad.find(key)) return v->number();
      return std::nullopt;
    };
    // A date is Unix seconds (0 or less: not set); a wall time is one job's, within the longest run.
    const auto date = [&](const char* key) -> std::optional<double> {
      const auto v = ad.find(key);
      if (!v) return std::nullopt;
      return v->number() <= 0 ? v->number() : v->number_in(0, limits::kMaxLogTimeS);
    };
    const auto completion = date("CompletionDate");
    if (!completion || *completion <= 0) continue;  // not finished
    LoggedJob job;
    if (!ad.find("ClusterId")) ad.fail("expected a \"ClusterId\"");
    const std::int64_t cluster = ad.at("ClusterId").integer_at_least(0);
    const std::int64_t proc = ad.find("ProcId") ? ad.at("ProcId").integer_at_least(0) : 0;
    job.id = std::to_string(cluster) + '.' + std::to_string(proc);
    job.end_s = *completion;
    job.start_s = date("JobCurrentStartDate").value_or(date("JobStartDate").value_or(0));
    if (const auto wall = ad.find("RemoteWallClockTime"))
      job.wall_s = wall->number_in(0, limits::kMaxDurationS);
    else if (job.start_s > 0)
      job.wall_s = job.end_s - job.start_s;
    else
      ad.fail("expected \"RemoteWallClockTime\", or \"JobCurrentStartDate\" with \"CompletionDate\"");
    if (!(job.wall_s >= 0 && job.wall_s <= limits::kMaxDurationS))
      ad.fail(printf_string("expected a wall-clock time from 0 to %g s (the longest run sonicsim simulates), got %g s",
                            limits::kMaxDurationS, job.wall_s));
    job.cpu_s = number("RemoteUserCpu").value_or(0) + number("RemoteSysCpu").value_or(0);
    for (const char* key : {"LastRemoteHost", "RemoteHost"})
      if (auto host = ad.find(key); host && job.machine.empty()) job.machine = host->string();
    jobs.push_back(job);
  }
  if (jobs.empty()) root.fail("expected at least one completed job (with a CompletionDate)");
  return jobs;
}

TritonScrape read_prometheus_scrape(const std::string& path, std::optional<double> time_s) {
  return parse_prometheus_scrape(read_input_file(path, kMaxLogFileBytes, "line 1"), path, time_s);
}

// Prometheus' text exposition format: "name{labels} value [timestamp_ms]" per line.
TritonScrape parse_prometheus_scrape(const std::string& text, const std::string& path, std::optional<double> time_s) {
  TritonScrape scrape;
  scrape.path = path;
  std::optional<double> stamped;
  double gpu_sum = 0;
  int gpus = 0;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const std::string where = "line " + std::to_string(number);
    const auto brace = line.find('{');
    const auto space = line.find(' ', brace == std::string::npos ? 0 : line.find('}', brace));
    if (space == std::string::npos) throw InputError(path, where, "expected \"name{labels} value [timestamp]\"");
    const std::string name = line.substr(0, std::min(brace, space));
    std::istringstream rest(line.substr(space + 1));
    std::string value_text, stamp_text, extra;
    rest >> value_text >> stamp_text >> extra;
    const char* value_end = value_text.data() + value_text.size();
    double value = 0;
    if (const auto [stop, error] = std::from_chars(value_text.data(), value_end, value);
        value_text.empty() || error != std::errc() || stop != value_end || !std::isfinite(value) || value < 0)
      throw InputError(
          path, where,
          "expected a finite, non-negative sample value after \"" + name + "\", got \"" + value_text + "\"");
    if (!stamp_text.empty()) {
      long long ms = 0;
      const char* stamp_end = stamp_text.data() + stamp_text.size();
      if (const auto [stop, error] = std::from_chars(stamp_text.data(), stamp_end, ms);
          error != std::errc() || stop != stamp_end || ms < 0 || !extra.empty())
        throw InputError(path, where,
                         "expected a timestamp in milliseconds after the value, got \"" + stamp_text + "\"");
      stamped = std::max(stamped.value_or(0), static_cast<double>(ms) / 1000.0);
    }
    if (name == "nv_inference_request_success")
      scrape.success += value;
    else if (name == "nv_inference_request_failure")
      scrape.failure += value;
    else if (name == "nv_inference_count")
      scrape.inferences += value;
    else if (name == "nv_inference_exec_count")
      scrape.executions += value;
    else if (name == "nv_inference_queue_duration_us")
      scrape.queue_us += value;
    else if (name == "nv_inference_request_duration_us")
      scrape.request_us += value;
    else if (name == "nv_inference_compute_infer_duration_us")
      scrape.compute_infer_us += value;
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
    throw InputError(path, "line 1",
                     "expected timestamps on the samples, or the scrape time given as " + path + "@SECONDS");
  return scrape;
}

TritonWindow triton_window(std::vector<TritonScrape> scrapes) {
  std::sort(scrapes.begin(), scrapes.end(), [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  if (scrapes.size() < 2 || scrapes.back().time_s <= scrapes.front().time_s)
    throw InputError(scrapes.back().path, "",
                     "Triton metrics need at least two scrapes at different times (counters are cumulative)");
  for (std::size_t i = 1; i < scrapes.size(); ++i) {
    const TritonScrape &before = scrapes[i - 1], &after = scrapes[i];
    for (const auto& [name, counter] : {std::pair{"nv_inference_request_success", &TritonScrape::success},
                                        {"nv_inference_request_failure", &TritonScrape::failure},
                                        {"nv_inference_count", &TritonScrape::inferences},
                                        {"nv_inference_exec_count", &TritonScrape::executions},
                                        {"nv_inference_queue_duration_us", &TritonScrape::queue_us},
                                        {"nv_inference_request_duration_us", &TritonScrape::request_us},
                                        {"nv_inference_compute_infer_duration_us", &TritonScrape::compute_infer_us}})
      if (after.*counter < before.*counter)
        throw InputError(after.path, "counters",
                         std::string(name) + " went down from " + std::to_string(before.*counter) + " (" + before.path +
                             ") to " + std::to_string(after.*counter) +
                             ": counters only grow, so the server restarted between the scrapes or the files are "
                             "from different servers");
  }
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
