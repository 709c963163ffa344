#include "models/io/json/choice.hpp"

namespace sonicsim {

std::string or_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += quoted(names[i]);
  }
  return out;
}

}  // namespace sonicsim
