#include "cli/sweep/sweep_directory.hpp"

#include "analysis/outputs/output_file.hpp"
#include "analysis/outputs/sweep_table.hpp"
#include "analysis/summary/summary_json.hpp"
#include "cli/unknowns/run_unknowns.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string fnv1a(const std::string& text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return printf_string("%016llx", static_cast<unsigned long long>(hash));
}

std::string scenario_fingerprint(const std::string& scenario_path) {
  return fnv1a(read_input_file(scenario_path, kMaxConfigFileBytes));
}

}  // namespace

void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path temporary = path.string() + ".tmp";
  write_file(temporary.string(), text);
  fs::rename(temporary, path);
}

SweepDirectory::SweepDirectory(fs::path dir, std::string scenario_path, std::vector<SweepAxis> axes, int)
    : dir_(std::move(dir)),
      scenario_path_(std::move(scenario_path)),
      axes_(std::move(axes)),
      points_(sweep_points(axes_)) {}

SweepDirectory::SweepDirectory(fs::path dir, const std::string& scenario_path, const std::vector<SweepAxis>& axes)
    : SweepDirectory(std::move(dir), scenario_path, axes, 0) {
  const json wanted = definition();
  const fs::path file = dir_ / "sweep.json";
  if (fs::exists(file)) {
    if (read_json_file(file.string()) != wanted)
      throw std::invalid_argument(dir_.string() + " holds a different sweep (" + file.string() +
                                  " does not match this scenario and these --set values); use another --output");
  } else {
    fs::create_directories(dir_);
    write_atomically(file, wanted.dump(2) + "\n");
  }
  fs::create_directories(dir_ / "points");
}

SweepDirectory SweepDirectory::open(const fs::path& dir) {
  const std::string file = (dir / "sweep.json").string();
  if (!fs::exists(file))
    throw std::invalid_argument(dir.string() + " holds no sweep (no sweep.json): expected the --output of a sweep");
  const json document = read_json_file(file);
  const JsonNode root(document, "", file);
  root.allow_only({"scenario", "scenario_fnv1a", "axes"});
  std::vector<SweepAxis> axes;
  for (const JsonNode& a : root.at("axes").elements()) {
    a.allow_only({"pointer", "values"});
    SweepAxis axis{a.at("pointer").string(), {}};
    for (const JsonNode& v : a.at("values").non_empty_elements()) axis.values.push_back(v.string());
    axes.push_back(std::move(axis));
  }
  root.at("scenario_fnv1a").string();
  SweepDirectory opened(dir, root.at("scenario").string(), std::move(axes), 0);
  if (opened.axes_json() != document.at("axes"))
    throw InputError(file, "/axes", "axes as a sweep writes them ({\"pointer\", \"values\"} each)");
  return opened;
}

json SweepDirectory::axes_json() const {
  json axes = json::array();
  for (const auto& a : axes_) axes.push_back({{"pointer", a.pointer}, {"values", a.values}});
  return axes;
}

json SweepDirectory::definition() const {
  return {
      {"scenario", scenario_path_}, {"scenario_fnv1a", scenario_fingerprint(scenario_path_)}, {"axes", axes_json()}};
}

bool SweepDirectory::scenario_unchanged() const {
  const json recorded = read_json_file((dir_ / "sweep.json").string());
  return recorded.value("scenario_fnv1a", "") == scenario_fingerprint(scenario_path_);
}

fs::path SweepDirectory::point_file(int point, const char* extension) const {
  return dir_ / "points" / printf_string("%06d.%s", point, extension);
}

// A file cut short (by a full disk or a crash before results were written atomically) or edited
// by hand counts as not done.
std::optional<Summary> SweepDirectory::finished_point(int point) const {
  const fs::path file = point_file(point, "json");
  if (!fs::exists(file)) return std::nullopt;
  try {
    const json result = read_json_file(file.string(), kMaxLogFileBytes);
    if (result.is_object() && result.contains("summary")) return summary_from_json(result["summary"], file.string());
  } catch (const InputError&) {
  }
  return std::nullopt;
}

std::vector<int> SweepDirectory::prepare_pending() {
  std::vector<int> pending;
  for (int i = 0; i < static_cast<int>(points_.size()); ++i) {
    if (finished_point(i)) continue;
    fs::remove(point_file(i, "json"));
    fs::remove(point_file(i, "error"));
    pending.push_back(i);
  }
  return pending;
}

Scenario load_point_scenario(const std::string& scenario_path, const std::vector<SweepAxis>& axes,
                             const std::vector<std::string>& values) {
  std::vector<std::pair<std::string, std::string>> overrides;
  for (std::size_t a = 0; a < axes.size(); ++a) overrides.emplace_back(axes[a].pointer, values.at(a));
  // With declared unknowns: the nominal run (every unknown at its nominal value).
  for (auto& o : nominal_overrides(scenario_unknowns(scenario_path, overrides))) overrides.push_back(std::move(o));
  Scenario scenario = load_scenario(scenario_path, overrides);
  if (scenario.perf_analyzer)
    throw std::invalid_argument("sweep runs grid-job workloads; this scenario is a perf_analyzer load");
  return scenario;
}

void SweepDirectory::run_point(int point) const {
  json parameters = json::object();
  const auto& values = points_.at(static_cast<std::size_t>(point));
  for (std::size_t a = 0; a < axes_.size(); ++a) parameters[axes_[a].pointer] = values[a];
  const Scenario scenario = load_point_scenario(scenario_path_, axes_, values);
  // Declared unknowns: the point's design over them (its band), in processes of their own before
  // this one holds a SimGrid engine, beside the nominal run.
  Overrides overrides;
  for (std::size_t a = 0; a < axes_.size(); ++a) overrides.emplace_back(axes_[a].pointer, values[a]);
  std::optional<UnknownsSummary> bands;
  if (const auto unknowns = scenario_unknowns(scenario_path_, overrides); !unknowns.empty())
    bands = grid_design(scenario_path_, overrides, unknowns, DesignOptions{{}, 200, scenario.simulation.seed}, 1, true);
  Summary summary = summarize(simulate(scenario));
  summary.declared_unknowns = bands;
  write_atomically(
      point_file(point, "json"),
      json{{"point", point}, {"parameters", parameters}, {"summary", summary_to_json(summary)}}.dump() + "\n");
}

void SweepDirectory::record_failure(int point, const std::string& error) const {
  write_atomically(point_file(point, "error"), error + "\n");
}

SweepDirectory::TableCounts SweepDirectory::write_table(const std::function<std::string(int)>& why_missing) const {
  std::vector<SweepPointResult> results;
  TableCounts counts;
  for (int i = 0; i < static_cast<int>(points_.size()); ++i) {
    SweepPointResult r{points_[static_cast<std::size_t>(i)], std::nullopt, ""};
    if (auto summary = finished_point(i)) {
      r.summary = std::move(summary);
      ++counts.ok;
    } else if (const fs::path error = point_file(i, "error"); fs::exists(error)) {
      r.error = read_input_file(error.string(), kMaxLogFileBytes);
      while (!r.error.empty() && r.error.back() == '\n') r.error.pop_back();
      ++counts.failed;
    } else {
      r.error = why_missing(i);
      ++counts.not_run;
    }
    results.push_back(std::move(r));
  }
  std::vector<std::string> pointers;
  for (const auto& a : axes_) pointers.push_back(a.pointer);
  write_atomically(dir_ / "sweep.csv", sweep_csv(pointers, results));
  return counts;
}

}  // namespace sonicsim::cli
