#pragma once
// What every fuzz target shares: the input as text, and the rule that the only exception a reader
// may throw is an InputError with a one-line message; anything else (another exception type, a
// crash, a sanitizer report, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "models/io/input_error.hpp"

namespace sonicsim::fuzz {

template <class Reader>
void expect_input_errors_only(const std::uint8_t* data, std::size_t size, Reader read) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    read(text);
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.find('\n') != std::string::npos || message.find('\r') != std::string::npos) {
      std::fprintf(stderr, "an InputError spans several lines: %s\n", message.c_str());
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "a reader threw something other than an InputError: %s\n", e.what());
    std::abort();
  }
}

}  // namespace sonicsim::fuzz
