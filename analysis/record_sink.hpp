#pragma once
// Where a run hands its request and batch records as they are made, instead of keeping them in
// SimulationResults::requests and ::batches: a perf_analyzer level streams them to its files
// (analysis/outputs/perf_records.hpp), holding none of them. The simulation knows only this
// interface; the CLI wires the writers to it.
#include <string>
#include <vector>

#include "analysis/records.hpp"

namespace sonicsim {

// The names a run's records refer to by index: a record's server and model, a request's module
// (as SimulationResults' server_names, model_names and module_names).
struct RecordedNames {
  std::vector<std::string> servers, models, modules;
};

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // Once, before the first record.
  virtual void open(const RecordedNames& names) = 0;
  virtual void request(const RequestRecord& record) = 0;
  virtual void batch(const BatchRecord& batch) = 0;
  // Once, after the last record. Throws std::runtime_error where the records could not all be kept.
  virtual void close() = 0;
};

}  // namespace sonicsim
