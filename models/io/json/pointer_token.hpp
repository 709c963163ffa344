#pragma once
// A key as one reference token of a JSON pointer (RFC 6901 §3): "~" becomes "~0" and "/" becomes "~1".
#include <string>

namespace sonicsim {

inline std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace sonicsim
