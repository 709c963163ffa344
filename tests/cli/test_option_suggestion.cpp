// A misspelt option gets the nearest of the command's options, by the optimal-string-alignment
// distance (each insertion, deletion, substitution or swap of neighbours counts 1).
#include <doctest/doctest.h>

#include <boost/program_options.hpp>

#include "cli/option_suggestion.hpp"

using namespace sonicsim::cli;

TEST_CASE("the edit distance counts insertions, deletions, substitutions and swaps of neighbours") {
  CHECK(edit_distance("tolerence", "tolerance") == 1);   // e -> a
  CHECK(edit_distance("tolerence", "tolerances") == 2);  // e -> a, + s
  CHECK(edit_distance("outptu", "output") == 1);         // tu -> ut
  CHECK(edit_distance("seed", "") == 4);
  CHECK(edit_distance("kitten", "sitting") == 3);  // the textbook pair: k -> s, e -> i, + g
}

TEST_CASE("the nearest name is suggested only when it is near: at most 2 edits and under half the length") {
  const std::vector<std::string> validate{"help", "run", "tolerances", "tolerance", "set", "fit", "fit-metric"};
  CHECK(nearest_name("tolerence", validate) == "tolerance");
  CHECK(nearest_name("tolerancs", validate) == "tolerances");
  CHECK(nearest_name("frobnicate", validate).empty());
  CHECK(nearest_name("st", validate).empty());  // 1 edit from "set", but half of a 2-letter name
}

TEST_CASE("the message names the option, and the nearest one or where the options are listed") {
  namespace po = boost::program_options;
  po::options_description options("sonicsim run SCENARIO.json [options]");
  options.add_options()("help,h", "")("output,o", po::value<std::string>(), "")("seed", po::value<std::string>(), "");
  CHECK(unknown_option_message("--outptu", options) == "unrecognised option '--outptu'; did you mean --output?");
  CHECK(unknown_option_message("--frobnicate", options) ==
        "unrecognised option '--frobnicate' (sonicsim run --help lists the options)");
  CHECK(unknown_option_message("-x", options) == "unrecognised option '-x' (sonicsim run --help lists the options)");
}
