#include "cli/calibrate_command.hpp"

#include <iostream>

#include <boost/program_options.hpp>

#include "analysis/calibration/calibration_report.hpp"
#include "analysis/calibration/perf_analyzer_csv.hpp"
#include "analysis/outputs/output_file.hpp"
#include "cli/command_line.hpp"
#include "models/io/json/choice.hpp"
#include "models/io/json/json_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
using namespace sonicsim::calibration;

namespace {

// "FILE" or "FILE@BATCH"; which format it is, from its first line.
CalibrationInput read_input(const std::string& argument, LatencyStatistic statistic) {
  const auto at = argument.rfind('@');
  const std::string path = at == std::string::npos ? argument : argument.substr(0, at);
  const std::string text = read_input_file(path, kMaxLogFileBytes, "line 1");
  const std::string first_line = text.substr(0, text.find('\n'));
  if (first_line == kCalibrationCsvMagic) {
    if (at != std::string::npos)
      throw po::error("\"" + argument + "\": a sonicsim calibration CSV states its batch sizes; drop the @BATCH");
    return parse_calibration_csv(text, path, statistic);
  }
  if (first_line.rfind("Concurrency,", 0) == 0 || first_line.rfind("Request Rate,", 0) == 0) {
    if (at == std::string::npos)
      throw po::error("\"" + path + "\" is a perf_analyzer CSV, which does not record the batch size: name it " + path +
                      "@BATCH, with BATCH the -b it was measured with");
    if (statistic != LatencyStatistic::Mean)
      throw po::error("\"" + path + "\": perf_analyzer's Server Compute Infer is a mean; use --statistic mean");
    int batch = 0;
    try {
      std::size_t used = 0;
      batch = std::stoi(argument.substr(at + 1), &used);
      if (used != argument.size() - at - 1 || batch < 1) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw po::error("\"" + argument + "\": expected FILE@BATCH with BATCH a positive integer");
    }
    return kernel_point_from_perf_analyzer(parse_perf_analyzer_csv(text, path), batch);
  }
  throw InputError(
      path, "line 1",
      std::string("expected \"") + kCalibrationCsvMagic +
          "\" (a sonicsim calibration CSV) or a perf_analyzer CSV header starting with \"Concurrency,\" or "
          "\"Request Rate,\", got \"" +
          first_line.substr(0, 60) + "\"");
}

}  // namespace

int calibrate_command(const std::vector<std::string>& args) {
  po::options_description options(
      "sonicsim calibrate MEASUREMENT... [options]\n"
      "  MEASUREMENT: a calibration CSV (calibration/data/README.md), or a perf_analyzer CSV (-f) as\n"
      "  FILE@BATCH, one per batch size; its Server Compute Infer at the lowest load is the kernel time");
  std::string output, residuals_path, statistic_text = "mean", select_text = "table", spread_text;
  BootstrapSettings bootstrap;
  std::string seed_text;
  options.add_options()("help,h", "show this help")("output,o", po::value(&output),
                                                    "write the latency model file (JSON) that a scenario references")(
      "statistic", po::value(&statistic_text),
      "latency statistic to fit: mean (default), p50, p99, or throughput (batch / throughput_items_per_s)")(
      "select", po::value(&select_text), "form a scenario uses unless it names one: table (default), affine, knee")(
      "bootstrap", po::value(&bootstrap.resamples),
      "bootstrap resamples for the uncertainty bands (default 1000; 0: none)")(
      "seed", po::value(&seed_text), "random seed of the bootstrap (default 1)")(
      "residuals-csv", po::value(&residuals_path), "write measured and fitted latencies per batch size as CSV")(
      "spread", po::value(&spread_text),
      "also fit single calls' spread per batch size and write it, with this distribution: lognormal or gamma")(
      "quiet,q", "print nothing but errors");
  std::vector<std::string> measurements;
  const auto parsed = parse_command_line(args, options, "measurement", po::value(&measurements)->composing(), -1);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (measurements.empty()) throw po::error("missing the measurements (sonicsim calibrate FILE.csv ...)");
  if (bootstrap.resamples < 0 || bootstrap.resamples > 1'000'000)
    throw po::error("--bootstrap expects a number of resamples from 0 to 1000000");
  if (!seed_text.empty()) bootstrap.seed = seed_option(seed_text, "--seed");
  const LatencyStatistic statistic = parse_statistic(statistic_text);
  const LatencyForm selected = parse_form(select_text);
  std::optional<SpreadShape> spread;
  if (vm.count("spread")) {
    for (const auto& [name, shape] : kSpreadShapes)
      if (name == spread_text) spread = shape;
    if (!spread) throw po::error("--spread expects " + choice_list(kSpreadShapes) + ", got \"" + spread_text + "\"");
  }

  std::vector<CalibrationInput> inputs;
  for (const std::string& m : measurements) inputs.push_back(read_input(m, statistic));
  const Calibration calibration = calibrate(std::move(inputs), statistic, selected, bootstrap, spread);

  const bool quiet = vm.count("quiet") > 0;
  if (!quiet) std::cout << format_calibration(calibration);
  for (const auto& form : calibration.forms)
    if (kernel_latency_s(form.curve, calibration.points.front().batch) <= 0)
      std::cerr << "sonicsim: warning: the " << form_name(form.form) << " fit gives a non-positive latency at batch "
                << calibration.points.front().batch << "\n";
  if (!output.empty()) {
    std::string command = "sonicsim calibrate";
    for (const std::string& a : args) command += " " + a;
    write_file(output, latency_model_json(calibration, command).dump(2) + "\n");
    if (!quiet) std::cout << "\nlatency model written to " << output << " (selected form: " << select_text << ")\n";
  }
  if (!residuals_path.empty()) write_file(residuals_path, residuals_csv(calibration));
  return 0;
}

}  // namespace sonicsim::cli
