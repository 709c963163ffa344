#pragma once
// "unrecognised option '--tolerence'; did you mean --tolerance?": the nearest of a command's own
// options to a misspelt one, by edit distance.
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>

namespace sonicsim::cli {

// The optimal-string-alignment distance: insertions, deletions, substitutions and transpositions of
// two adjacent characters, each 1 ("outptu" is 1 from "output").
std::size_t edit_distance(const std::string& a, const std::string& b);

// Of `names`, the one nearest `misspelt` if it is near enough to be what was meant: at most 2 edits,
// and fewer than half the misspelt name's length; "" otherwise.
std::string nearest_name(const std::string& misspelt, const std::vector<std::string>& names);

// The message for an option `options` does not have, as given on the command line ("--tolerence").
std::string unknown_option_message(const std::string& given,
                                   const boost::program_options::options_description& options);

}  // namespace sonicsim::cli
