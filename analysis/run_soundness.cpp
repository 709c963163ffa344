#include "analysis/run_soundness.hpp"

#include "models/io/text_format.hpp"

namespace sonicsim {

std::vector<std::string> unsound_reasons(const Summary& s) {
  std::vector<std::string> reasons;
  if (s.event_time.count == 0) reasons.emplace_back("no event completed");
  if (const auto& f = s.failures; f && (f->jobs_failed > 0 || f->events_lost > 0)) {
    std::string why =
        printf_string("%lld%s job runs failed, losing %lld events", static_cast<long long>(f->jobs_failed),
                      s.jobs ? printf_string(" of %lld", static_cast<long long>(s.jobs->submitted)).c_str() : "",
                      static_cast<long long>(f->events_lost));
    if (f->requests_failed() > 0)
      why += printf_string(" (requests failed: %lld unavailable, %lld past their deadline, %lld cancelled)",
                           static_cast<long long>(f->unavailable), static_cast<long long>(f->deadline_exceeded),
                           static_cast<long long>(f->cancelled));
    reasons.push_back(why);
  }
  if (const auto& stop = s.precision_stop) {
    // Waves repeat their load in cycles long before their last one is submitted.
    const bool waves = stop->cycles && stop->cycles->repeats_until_s;
    const double load_s = waves ? stop->cycles->repeats_from_s : stop->load_from_s;
    if (!stop->drained && s.simulated_s < load_s)  // a workload that ended was all the load it had
      reasons.push_back(
          printf_string(waves ? "it ended at t = %.0f s, before its waves repeat their load (t = %.0f s)"
                              : "it ended at t = %.0f s, before its load (every job submitted at t = %.0f s)",
                        s.simulated_s, load_s));
    else if (!stop->reached && !stop->drained && s.steady.warmup_at_limit)
      reasons.push_back(
          printf_string("no steady state by its end at t = %.0f s (the warm-up cut reached half of its "
                        "events): its mean holds a transient",
                        s.simulated_s));
  }
  return reasons;
}

std::string joined_reasons(const std::vector<std::string>& reasons) {
  std::string out;
  for (const std::string& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

}  // namespace sonicsim
