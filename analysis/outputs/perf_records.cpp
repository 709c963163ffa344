#include "analysis/outputs/perf_records.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "analysis/outputs/perf_report.hpp"

namespace sonicsim {
namespace {

std::string part_path(const std::string& directory, const char* file, std::size_t level_index) {
  return (std::filesystem::path(directory) / (std::string(file) + ".part-" + std::to_string(level_index))).string();
}

const char* level_column(PerfLoadMode mode) {
  return mode == PerfLoadMode::Concurrency ? "concurrency," : "request_rate,";
}

// The header, then every level's part in order; a part is removed once copied.
void join(const std::string& directory, const char* file, const std::string& header, std::size_t levels) {
  OutputFile out((std::filesystem::path(directory) / file).string());
  out.write(header);
  char block[1 << 16];
  for (std::size_t level = 0; level < levels; ++level) {
    const std::string part = part_path(directory, file, level);
    std::FILE* in = std::fopen(part.c_str(), "rb");
    if (!in) throw std::runtime_error(part + ": cannot read: " + std::strerror(errno));
    std::size_t got;
    while ((got = std::fread(block, 1, sizeof block, in)) > 0) out.write(std::string_view(block, got));
    const bool failed = std::ferror(in);
    std::fclose(in);
    if (failed) throw std::runtime_error(part + ": cannot read");
    std::filesystem::remove(part);
  }
  out.close();
}

}  // namespace

PerfLevelRecords::PerfLevelRecords(const PerfRecordOutput& output, std::size_t level_index, PerfLoadMode mode,
                                   double level, DeviceNaming device_naming, bool failures_possible)
    : output_(output),
      level_index_(level_index),
      names_{{}, {}, {}, device_naming, failures_possible},
      level_(format_level(mode, level) + ",") {}

void PerfLevelRecords::open(const RecordedNames& names) {
  names_ = record_names(names, names_.device_naming, names_.failures_possible);
  if (output_.requests)
    requests_ = std::make_unique<OutputFile>(part_path(output_.directory, "requests.csv", level_index_));
  if (output_.batches)
    batches_ = std::make_unique<OutputFile>(part_path(output_.directory, "batches.csv", level_index_));
}

// A failed file has removed itself (OutputFile); the error waits for close().
void PerfLevelRecords::write(std::unique_ptr<OutputFile>& file, const auto& row) {
  if (!file) return;
  try {
    file->write(level_);
    row(*file);
  } catch (const std::runtime_error& e) {
    if (error_.empty()) error_ = e.what();
    file.reset();
  }
}

void PerfLevelRecords::request(const RequestRecord& record) {
  write(requests_, [&](OutputFile& f) { write_request_row(f, record, names_); });
}

void PerfLevelRecords::batch(const BatchRecord& batch) {
  write(batches_, [&](OutputFile& f) { write_batch_row(f, batch, names_); });
}

void PerfLevelRecords::close() {
  if (!error_.empty()) throw std::runtime_error(error_);
  if (requests_) requests_->close();
  if (batches_) batches_->close();
}

void join_perf_records(const PerfRecordOutput& output, std::size_t levels, PerfLoadMode mode,
                       const RecordNames& names) {
  if (output.requests) join(output.directory, "requests.csv", level_column(mode) + request_columns(names), levels);
  if (output.batches) join(output.directory, "batches.csv", level_column(mode) + batch_columns(names), levels);
}

void remove_perf_record_parts(const PerfRecordOutput& output, std::size_t levels) {
  std::error_code ignored;  // a part never written is no error
  for (std::size_t level = 0; level < levels; ++level)
    for (const char* file : {"requests.csv", "batches.csv"})
      std::filesystem::remove(part_path(output.directory, file, level), ignored);
}

}  // namespace sonicsim
