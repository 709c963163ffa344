#include "cli/option_suggestion.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

namespace sonicsim::cli {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // d[i][j]: the distance between a's first i characters and b's first j (Damerau's restricted form).
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string nearest_name(const std::string& misspelt, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const std::string& name : names)
    if (const std::size_t d = edit_distance(misspelt, name); d < best_distance) best = name, best_distance = d;
  return best_distance <= 2 && 2 * best_distance < misspelt.size() ? best : "";
}

std::string unknown_option_message(const std::string& given,
                                   const boost::program_options::options_description& options) {
  std::string message = "unrecognised option '" + given + "'";
  // Only a long option is compared (a word, not a letter); an argument too long for any option
  // name is not (the distance table would be needlessly large).
  if (given.rfind("--", 0) == 0 && given.size() <= 64) {
    std::vector<std::string> names;
    for (const auto& option : options.options())
      if (!option->long_name().empty()) names.push_back(option->long_name());
    if (const std::string near = nearest_name(given.substr(2), names); !near.empty())
      return message + "; did you mean --" + near + "?";
  }
  // The caption, the first line of the help, starts with the command: "sonicsim run SCENARIO.json
  // [options]" (Boost 1.74 has no getter for it).
  std::ostringstream help;
  help << options;
  const std::string caption = help.str().substr(0, help.str().find('\n'));
  const auto command_end = caption.find(' ', caption.find(' ') + 1);
  return message + " (" +
         (command_end == std::string::npos ? std::string("--help") : caption.substr(0, command_end) + " --help") +
         " lists the options)";
}

}  // namespace sonicsim::cli
