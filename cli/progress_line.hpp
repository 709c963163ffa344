#pragma once
// One line on a terminal (stderr), redrawn in place, that says how far a long command has got:
// points or runs done, running, failed, and the time left, estimated from those done so far.
#include <chrono>
#include <string>

namespace sonicsim::cli {

class ProgressLine {
 public:
  // `total` things to do, `already_done` of them before this command (they do not count towards the
  // rate); nothing is drawn unless `show` (the caller checks that stderr is a terminal).
  ProgressLine(std::string what, int total, int already_done, bool show);
  ~ProgressLine();

  void update(int done, int running, int failed);
  // Ends the line (a newline), once.
  void finish();

 private:
  std::string what_;
  int total_, already_done_;
  bool show_, drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// One line on a terminal (stderr) saying what runs now, for a search whose length is not known in
// advance (plan); cleared before the next result is printed.
class StatusLine {
 public:
  explicit StatusLine(bool show) : show_(show) {}
  ~StatusLine() { clear(); }
  void show(const std::string& text);
  void clear();

 private:
  bool show_, drawn_ = false;
};

}  // namespace sonicsim::cli
