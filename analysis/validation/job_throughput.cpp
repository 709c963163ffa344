#include "analysis/validation/job_throughput.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::validation {
namespace {

std::string_view trimmed(std::string_view line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

// Calls `each(line number, trimmed line)` for every line that is neither blank nor a '#' comment,
// until it returns false.
template <typename Each>
void for_each_value_line(const std::string& text, Each each) {
  std::size_t begin = 0;
  for (long long number = 1; begin < text.size(); ++number) {
    const auto end = std::min(text.find('\n', begin), text.size());
    const std::string_view line = trimmed(std::string_view(text).substr(begin, end - begin));
    begin = end + 1;
    if (line.empty() || line.front() == '#') continue;
    if (!each(number, line)) return;
  }
}

// The whole of `line` read as a number: from_chars' result (std::errc::result_out_of_range for
// 1e400), or invalid_argument when anything else is in it.
std::errc read_number(std::string_view line, double& value) {
  const char* end = line.data() + line.size();
  // from_chars takes no leading '+'; a value written "+4.5" is still a value.
  const char* begin = !line.empty() && line.front() == '+' ? line.data() + 1 : line.data();
  const auto [stop, error] = std::from_chars(begin, end, value);
  if (stop != end || begin == end) return std::errc::invalid_argument;
  return error;
}

}  // namespace

bool is_job_throughput_log(const std::string& text) {
  bool numeric = false;
  for_each_value_line(text, [&](long long, std::string_view line) {
    double value = 0;
    const std::errc error = read_number(line, value);
    numeric = error == std::errc() || error == std::errc::result_out_of_range;
    return false;  // the first line decides
  });
  return numeric;
}

std::vector<double> parse_job_throughput_log(const std::string& text, const std::string& path) {
  std::vector<double> values;
  for_each_value_line(text, [&](long long number, std::string_view line) {
    const std::string where = "line " + std::to_string(number);
    if (values.size() >= kMaxLoggedJobs)
      throw InputError(
          path, where,
          "more than " + std::to_string(kMaxLoggedJobs) + " jobs, the most a per-job throughput log may hold");
    double value = 0;
    const std::errc error = read_number(line, value);
    if (error == std::errc() && std::isnan(value))
      throw InputError(path, where, "expected a finite number of events per second, got \"" + std::string(line) + "\"");
    if (error == std::errc::result_out_of_range || (error == std::errc() && value > kMaxJobEventsPerS))
      throw InputError(path, where,
                       "expected at most " + printf_string("%g", kMaxJobEventsPerS) + " events per second, got \"" +
                           std::string(line) + "\"");
    if (error != std::errc())
      throw InputError(path, where,
                       "expected one number per line, a job's events per second (per-job throughput "
                       "log), got \"" +
                           std::string(line) + "\"");
    if (!(value > 0))
      throw InputError(path, where,
                       "expected a positive number of events per second (a job that completed no "
                       "event has no throughput), got \"" +
                           std::string(line) + "\"");
    values.push_back(value);
    return true;
  });
  if (values.empty()) throw InputError(path, "rows", "expected at least one job's events per second");
  return values;
}

std::vector<double> read_job_throughput_log(const std::string& path) {
  return parse_job_throughput_log(read_input_file(path, kMaxLogFileBytes, "line 1"), path);
}

std::vector<double> job_throughputs(const std::vector<JobRecord>& jobs) {
  std::vector<double> rates;
  for (const JobRecord& j : jobs)
    if (j.outcome == JobOutcome::Done && j.events > 0 && j.end_s > j.start_s)
      rates.push_back(static_cast<double>(j.events) / (j.end_s - j.start_s));
  return rates;
}

std::vector<ValidationRow> compare_job_throughputs(const std::vector<double>& measured,
                                                   const std::vector<double>& simulated, const Tolerances& tolerances) {
  return compare_distribution("job_throughput", "job throughput", "events/s", {0.10, 0.50, 0.90}, measured, simulated,
                              tolerances);
}

}  // namespace sonicsim::validation
