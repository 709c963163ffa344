#include "cli/progress_line.hpp"

#include <algorithm>
#include <cstdio>

#include "models/io/text_format.hpp"

namespace sonicsim::cli {

ProgressLine::ProgressLine(std::string what, int total, int already_done, bool show)
    : what_(std::move(what)), total_(total), already_done_(already_done), show_(show) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(int done, int running, int failed) {
  if (!show_) return;
  const int width = 30;
  const int filled = total_ > 0 ? width * std::clamp(done, 0, total_) / total_ : width;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const int ran = done - already_done_;
  const std::string left =
      ran > 0 ? printf_string("about %.0f s left", elapsed / ran * std::max(0, total_ - done)) : "time left unknown";
  std::fprintf(stderr, "\r[%s%s] %d/%d %s done, %d running, %d failed, %.0f s elapsed, %s ",
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), done, total_, what_.c_str(), running,
               failed, elapsed, left.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
}

void StatusLine::show(const std::string& text) {
  if (!show_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());  // ECMA-48 EL: erase to the end of the line
  std::fflush(stderr);
  drawn_ = true;
}

void StatusLine::clear() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace sonicsim::cli
