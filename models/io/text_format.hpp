#pragma once
// printf-style formatting into a std::string, for the fixed-width tables the commands print.
#include <cstdio>
#include <string>

namespace sonicsim {

template <typename... Values>
std::string printf_string(const char* format, Values... values) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format, values...);
  return buffer;
}

}  // namespace sonicsim
