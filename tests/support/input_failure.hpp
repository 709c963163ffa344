#pragma once
// Test helpers for inputs that must be refused: the parts of the InputError a call throws, and
// scratch files to feed the readers.
#include <string>

#include "models/io/input_error.hpp"

namespace sonicsim::test {

// Where and why an input was refused: "(no error)" everywhere when nothing was thrown.
struct Failure {
  std::string file = "(no error)";
  std::string where = "(no error)";
  std::string message = "(no error)";
};

template <class F>
Failure failure_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    const std::string what = e.what();
    const std::string prefix = e.file() + ": " + e.pointer() + ": ";
    return {e.file(), e.pointer(), what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what};
  }
  return {};
}

// Writes `text` into `name` in a scratch directory of this process and returns its path.
std::string write_scratch_file(const std::string& name, const std::string& text);

// A config.pbtxt `name`.pbtxt with `text`, in the scratch directory.
inline std::string write_pbtxt(const std::string& name, const std::string& text) {
  return write_scratch_file(name + ".pbtxt", text);
}

}  // namespace sonicsim::test
