#pragma once
// "--set /json/pointer=value" arguments, shared by the commands that take them.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim::cli {

inline std::vector<std::pair<std::string, std::string>> parse_overrides(const std::vector<std::string>& sets) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || s[0] != '/')
      throw std::invalid_argument("--set expects /JSON/POINTER=VALUE (e.g. --set /workload/jobs=200), got \"" + s +
                                  "\"");
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

}  // namespace sonicsim::cli
