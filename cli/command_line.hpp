#pragma once
// The parsing every command shares: its named options, plus positional arguments collected under
// one hidden option; --help prints the options, and a misspelt option gets the nearest one.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/option_suggestion.hpp"
#include "models/io/units.hpp"

namespace sonicsim::cli {

// `positional` receives up to `max_positional` arguments (-1: any number). Returns no value when
// --help was asked for and printed.
inline std::optional<boost::program_options::variables_map> parse_command_line(
    const std::vector<std::string>& args, const boost::program_options::options_description& options,
    const char* positional_name, const boost::program_options::value_semantic* positional, int max_positional) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()(positional_name, positional);
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positions;
  positions.add(positional_name, max_positional);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
  } catch (const po::unknown_option& e) {
    throw po::error(unknown_option_message(e.get_option_name(), options));
  }
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << options << '\n';
    return std::nullopt;
  }
  return vm;
}

// A seed written as digits: 0 to 2^64 - 1 (Boost would read "-1" as 2^64 - 1).
inline std::uint64_t seed_option(const std::string& text, const char* option) {
  std::uint64_t seed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || text[0] == '-' || text[0] == '+' || error != std::errc() || end != text.data() + text.size())
    throw boost::program_options::error(std::string(option) + " expects a whole number from 0 to 2^64 - 1, got \"" +
                                        text + "\"");
  return seed;
}

// A relative quantity written "0.05" or "5%" (units::parse_fraction), the error naming the flag.
inline double fraction_option(const std::string& text, const std::string& option) {
  try {
    return units::parse_fraction(text);
  } catch (const units::UnitError& e) {
    throw boost::program_options::error(option + ": " + e.what());
  }
}

// A finite number within [min, max].
inline double bounded_option(double value, double min, double max, const char* option) {
  if (!(std::isfinite(value) && value >= min && value <= max))
    throw boost::program_options::error(std::string(option) + " expects a number from " + std::to_string(min) + " to " +
                                        std::to_string(max) + ", got " + std::to_string(value));
  return value;
}

}  // namespace sonicsim::cli
