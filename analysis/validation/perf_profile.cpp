#include "analysis/validation/perf_profile.hpp"

#include <algorithm>
#include <cstdint>

#include "models/io/json/json_reader.hpp"

namespace sonicsim::validation {

std::vector<ProfileExperiment> read_perf_profile(const std::string& path) {
  return parse_perf_profile(read_input_file(path, kMaxLogFileBytes), path);
}

std::vector<ProfileExperiment> parse_perf_profile(const std::string& text, const std::string& path) {
  const nlohmann::json document = parse_json_text(text, path);
  const JsonNode root(document, "", path);
  std::vector<ProfileExperiment> experiments;
  for (const JsonNode& e : root.at("experiments").non_empty_elements()) {
    ProfileExperiment out;
    const JsonNode header = e.at("experiment");
    out.mode = header.at("mode").string();
    if (out.mode != "concurrency" && out.mode != "request_rate")
      header.at("mode").fail("expected \"concurrency\" or \"request_rate\", got \"" + out.mode + "\"");
    out.value = header.at("value").number_positive();
    // Timestamps are ns since the epoch (~1.7e18): kept as integers, as a double would round them
    // to 256 ns.
    std::int64_t window_start = -1, window_end = -1;
    if (auto bounds = e.find("window_boundaries")) {
      const auto b = bounds->elements();
      if (b.size() >= 2) window_start = b.front().integer_at_least(0), window_end = b.back().integer_at_least(0);
    }
    for (const JsonNode& r : e.at("requests").elements()) {
      const std::int64_t sent = r.at("timestamp").integer_at_least(0);
      const auto responses = r.at("response_timestamps").elements();
      if (responses.empty()) continue;  // never answered
      const std::int64_t last = responses.back().integer_at_least(0);
      if (last < sent) responses.back().fail("expected a response after the request's timestamp");
      if (window_start >= 0 && (last < window_start || last > window_end)) continue;
      out.latencies_s.push_back(static_cast<double>(last - sent) * 1e-9);
    }
    if (out.latencies_s.empty()) e.at("requests").fail("expected at least one request answered inside the windows");
    experiments.push_back(std::move(out));
  }
  return experiments;
}

}  // namespace sonicsim::validation
