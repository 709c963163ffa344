#pragma once
#include <stdexcept>
#include <string>

#include "models/io/message_text.hpp"

namespace sonicsim {

// A problem with what the user gave: "FILE: WHERE: what was expected", always one line (user text in
// it is escaped and shortened; see message_text.hpp). The command line exits 2 on it.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& pointer, const std::string& message)
      : std::runtime_error(one_line(file + ": " + (pointer.empty() ? "/" : pointer) + ": " + message)),
        file_(file),
        pointer_(pointer.empty() ? "/" : pointer) {}
  // An InputError's what() carried over from another process (a sweep point, an isolated run).
  explicit InputError(const std::string& message) : std::runtime_error(one_line(message)) {}
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }

 private:
  std::string file_;
  std::string pointer_;
};

}  // namespace sonicsim
