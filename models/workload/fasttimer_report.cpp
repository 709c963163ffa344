#include "models/workload/fasttimer_report.hpp"

#include <map>
#include <string>

#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim {
namespace {

// writeSummaryJSON appends the framework's time outside modules as three pseudo-modules whose type
// and label are the same word: "other" (transitions and overhead), "eventsetup" and "idle".
bool is_idle(const TimedModule& m) { return m.type == "idle" && m.label == "idle"; }

TimedModule read_module(const JsonNode& node, std::int64_t events, int position) {
  if (!node.raw().is_object())
    node.fail("expected an object {\"type\", \"label\", \"time_thread\", ...} (a module's resources)");
  TimedModule m;
  m.type = node.at("type").name();
  m.label = node.at("label").name();
  m.position = position;
  const JsonNode time = node.at("time_thread");
  // encodeToJSON writes ms(data.time_thread): the job's sum, in milliseconds.
  m.thread_s_per_event = time.number_at_least(0) / 1e3 / static_cast<double>(events);
  if (m.thread_s_per_event > limits::kMaxDurationS)
    time.fail("expected at most " + printf_string("%g", limits::kMaxDurationS) + " s per event, got " +
              printf_string("%g", m.thread_s_per_event) + " s (" + std::to_string(events) + " events)");
  return m;
}

}  // namespace

const TimedModule* FastTimerReport::find(const std::string& label) const {
  for (const TimedModule& m : modules)
    if (m.label == label) return &m;
  return nullptr;
}

FastTimerReport parse_fasttimer_report(const nlohmann::json& document, const std::string& path) {
  const JsonNode root(document, "", path);
  if (!document.is_object())
    root.fail("expected a FastTimerService JSON summary (an object with \"total\" and \"modules\")");
  FastTimerReport report;
  report.file = path;
  const JsonNode total = root.at("total");
  report.process = total.at("label").name();
  const JsonNode events = total.at("events");
  report.events = events.integer_at_least(0);
  // printSummaryLine divides by the job's events and prints 0 where there are none: no per-event time.
  if (report.events == 0)
    events.fail("the job processed no events: expected at least 1 (times per event divide by it)");
  std::map<std::string, int> seen;
  int position = 0;
  for (const JsonNode& node : root.at("modules").non_empty_elements()) {
    TimedModule m = read_module(node, report.events, position++);
    if (is_idle(m)) continue;
    const auto [at, fresh] = seen.emplace(m.label, m.position);
    if (!fresh)
      node.at("label").fail("label \"" + m.label + "\" repeats /modules/" + std::to_string(at->second) +
                            ": expected one entry per module label");
    report.modules.push_back(std::move(m));
  }
  return report;
}

FastTimerReport read_fasttimer_report(const std::string& path) {
  return parse_fasttimer_report(read_json_file(path), path);
}

}  // namespace sonicsim
