#pragma once
// Error messages are one line on the terminal whatever the input holds: user text echoed in them
// is escaped (control characters, invalid UTF-8) and long snippets are shortened.
#include <string>
#include <string_view>

namespace sonicsim {

// `text` with control characters written as \n, \r, \t or \xNN, bytes that are not UTF-8 as \xNN,
// and, if longer than `max_chars` bytes, its middle replaced by "...".
std::string printable(std::string_view text, std::size_t max_chars = 80);

// Whether `text` is well-formed UTF-8 (RFC 3629).
bool valid_utf8(std::string_view text);
// The offset of the first byte of `text` that starts no well-formed UTF-8 sequence; npos if none.
std::size_t first_invalid_utf8(std::string_view text);

// A whole message made fit for one terminal line: every character escaped as in printable(),
// quoted snippets ("...") longer than 80 bytes shortened, and the whole at most 1000 bytes.
std::string one_line(std::string_view message);

}  // namespace sonicsim
