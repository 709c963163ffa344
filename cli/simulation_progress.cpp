#include "cli/simulation_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

#include "models/io/text_format.hpp"

namespace sonicsim::cli {
namespace {

std::string seconds_text(double s) { return s >= 10 ? printf_string("%.0f s", s) : printf_string("%.2g s", s); }

}  // namespace

std::string simulation_progress_text(const SimulationProgress& p, double elapsed_s) {
  // The share done: of the simulated time where the run has an end, of the events where its jobs
  // have counts; the larger where it has both (a stopping rule's max_time and events), as the run
  // ends at whichever comes first.
  double done = 0;
  std::string text = "simulated " + seconds_text(p.simulated_s);
  if (p.end_s && *p.end_s > 0) {
    text += " of " + seconds_text(*p.end_s);
    done = p.simulated_s / *p.end_s;
  }
  text += printf_string(", %lld", static_cast<long long>(p.events));
  if (p.events_total && *p.events_total > 0) {
    text += printf_string(" of %lld", static_cast<long long>(*p.events_total));
    done = std::max(done, static_cast<double>(p.events) / static_cast<double>(*p.events_total));
  }
  text += " events";
  if (done > 0 && done < 1) text += printf_string(" (%.0f%%)", 100 * done);
  text += ", " + printf_string("%.0f s", elapsed_s) + " elapsed, ";
  // Past its bound (resubmitted jobs run their events again) or before any progress: no estimate.
  if (!(done > 0 && done < 1) || elapsed_s <= 0) return text + "time left unknown";
  const double left_s = elapsed_s * (1 - done) / done;
  return text + (p.may_end_sooner ? "at most about " : "about ") + printf_string("%.0f s", left_s) + " left";
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

namespace {

// The text cut to the terminal's width: a line that wrapped would leave its first rows behind at
// each redraw (the carriage return goes back to the start of the last row only).
std::string fitted_to_terminal(std::string text) {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 && text.size() >= size.ws_col)
    text.resize(size.ws_col - 1u);
  return text;
}

}  // namespace

ProgressObserver SimulationProgressLine::observer() {
  if (!show_) return {};
  return [this](const SimulationProgress& progress) {
    const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    line_.show(fitted_to_terminal(simulation_progress_text(progress, elapsed_s)));
  };
}

}  // namespace sonicsim::cli
