#pragma once
// The requests and batches of a perf_analyzer run (`run --output DIR`), streamed: each load level's
// child process writes its rows into part files of DIR as its requests are answered and its batches
// end, holding none of them, and once every level has run the parts are joined, level after level,
// into DIR/requests.csv and DIR/batches.csv, whose first column is the level ("concurrency" or
// "request_rate") and whose other columns are a grid-job run's (scenarios/README.md, "Outputs").
#include <cstddef>
#include <memory>
#include <string>

#include "analysis/outputs/output_file.hpp"
#include "analysis/outputs/record_rows.hpp"
#include "analysis/record_sink.hpp"
#include "models/scenario/device_naming.hpp"
#include "models/scenario/perf_load.hpp"

namespace sonicsim {

// What a perf run writes: where, and which of the two files.
struct PerfRecordOutput {
  std::string directory;
  bool requests = true;
  bool batches = true;
};

// The part files of one level, written by its child process: the sink its simulation hands each
// record to (simulate_perf_level). The files are created when the simulation opens the sink.
class PerfLevelRecords : public RecordSink {
 public:
  // `device_naming` and `failures_possible`: the scenario's (its rows' columns, as RecordNames).
  PerfLevelRecords(const PerfRecordOutput& output, std::size_t level_index, PerfLoadMode mode, double level,
                   DeviceNaming device_naming, bool failures_possible);
  void open(const RecordedNames& names) override;
  // Called from the simulation: a write that fails is kept for close(), and nothing more is written.
  void request(const RequestRecord& record) override;
  void batch(const BatchRecord& batch) override;
  // Throws std::runtime_error naming a file that could not be written whole.
  void close() override;

 private:
  void write(std::unique_ptr<OutputFile>& file, const auto& row);

  PerfRecordOutput output_;
  std::size_t level_index_;
  RecordNames names_;
  std::string level_;  // the first field of every row
  std::unique_ptr<OutputFile> requests_, batches_;
  std::string error_;
};

// DIR/requests.csv and DIR/batches.csv from the parts of levels 0 to `levels` - 1, copied a block at
// a time; the parts are removed. `names` gives the columns (device naming, failure columns).
void join_perf_records(const PerfRecordOutput& output, std::size_t levels, PerfLoadMode mode, const RecordNames& names);

// The run stopped at an error: the parts of levels 0 to `levels` - 1 that exist are removed.
void remove_perf_record_parts(const PerfRecordOutput& output, std::size_t levels);

}  // namespace sonicsim
