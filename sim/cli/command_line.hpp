#pragma once
// The parsing every command shares: its named options, plus positional arguments collected under
// one hidden option; --help prints the options.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

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
  po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << options << '\n';
    return std::nullopt;
  }
  return vm;
}

}  // namespace sonicsim::cli
