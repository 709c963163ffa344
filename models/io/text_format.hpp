#pragma once
// printf-style formatting into a std::string of whatever length the text needs, for the tables and
// messages the commands print. The compiler checks the arguments against the format.
#include <string>

namespace sonicsim {

std::string printf_string(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace sonicsim
