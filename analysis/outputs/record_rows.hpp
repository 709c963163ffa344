#pragma once
// The rows of requests.csv and batches.csv, one record at a time: what a finished run writes from its
// kept records (result_writers.hpp) and what a perf_analyzer level streams as it goes
// (perf_records.hpp) are the same rows. Columns: scenarios/README.md, "Outputs".
#include <string>
#include <vector>

#include "analysis/outputs/output_file.hpp"
#include "analysis/record_sink.hpp"
#include "analysis/records.hpp"

namespace sonicsim {

// The names the rows print, each already a CSV field.
struct RecordNames {
  std::vector<std::string> modules, models, servers;
  DeviceNaming device_naming = DeviceNaming::Gpu;
  bool failures_possible = false;  // requests.csv has the attempt, failure and retried columns
};

RecordNames record_names(const SimulationResults& results);
// The same for records streamed to a sink (analysis/record_sink.hpp).
RecordNames record_names(const RecordedNames& names, DeviceNaming device_naming, bool failures_possible);

// The header lines (without a leading column of the caller's), ending in a line break.
std::string request_columns(const RecordNames& names);
std::string batch_columns(const RecordNames& names);

void write_request_row(OutputFile& file, const RequestRecord& record, const RecordNames& names);
void write_batch_row(OutputFile& file, const BatchRecord& batch, const RecordNames& names);

}  // namespace sonicsim
