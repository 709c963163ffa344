#pragma once
// A CMSSW FastTimerService job summary: the JSON file it writes when writeJSONSummary is set (the
// resources file of the timing pie charts). Its schema is FastTimerService::writeSummaryJSON
// (HLTrigger/Timer/plugins/FastTimerService.cc, cms-sw/cmssw@03378549aa16aef6c8044c5a2d178de7c4efa3a9
// and @b513dc068e712a47663ded9d7d38576645da5b0b):
//   {"resources": [...],
//    "total":   {"type": "Job", "label": PROCESS, "events": N, "time_thread": MS, "time_real": MS, ...},
//    "modules": [{"type": C++ TYPE, "label": LABEL, "events": RUN IN, "time_thread": MS, ...}, ...,
//                {"type": "other", ...}, {"type": "eventsetup", ...}, {"type": "idle", ...}]}
// where every time is the job's sum in milliseconds (encodeToJSON's ms()) and `events` of the total
// is the job's event count. Other keys (newer writers may add some) are not read.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonicsim {

struct TimedModule {
  std::string type;   // the module's C++ type (moduleName), or "other"/"eventsetup" for the framework's own time
  std::string label;  // the module's label in the job's configuration
  double thread_s_per_event = 0;  // time_thread over all the job's events: seconds of CPU per event
  int position = 0;               // index in the report's "modules" array
};

struct FastTimerReport {
  std::string file;
  std::string process;  // /total/label
  std::int64_t events = 0;
  // The modules and the framework's "other" and "eventsetup", in the report's order, without
  // "idle": a thread's time waiting for work is no event's work.
  std::vector<TimedModule> modules;

  // The module of that label, or nullptr.
  const TimedModule* find(const std::string& label) const;
};

FastTimerReport read_fasttimer_report(const std::string& path);
FastTimerReport parse_fasttimer_report(const nlohmann::json& document, const std::string& path);

}  // namespace sonicsim
