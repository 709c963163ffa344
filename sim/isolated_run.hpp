#pragma once
// SimGrid allows one engine per process: runs `body` in a forked child and returns the text it
// produced. A child that throws or dies becomes a std::runtime_error carrying its message.
#include <functional>
#include <string>

namespace sonicsim {

std::string run_isolated(const std::function<std::string()>& body);

}  // namespace sonicsim
