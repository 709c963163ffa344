#include "analysis/summary/device_keys.hpp"

namespace sonicsim {

std::string device_key(std::string_view pattern, DeviceNaming naming) {
  const DeviceWords words = device_words(naming);
  std::string key;
  for (std::size_t at = 0; at < pattern.size();) {
    if (pattern.substr(at, 4) == "{ds}") {
      key += words.plural;
      at += 4;
    } else if (pattern.substr(at, 3) == "{d}") {
      key += words.key;
      at += 3;
    } else {
      key += pattern[at++];
    }
  }
  return key;
}

}  // namespace sonicsim
