#pragma once
// Reading an input file whole, with a bound on its size: an endless stream (/dev/zero, a pipe that
// never closes) or a file far larger than any real input is an error, never a hang or unbounded
// memory. A directory, or a file that cannot be read, is an error too.
#include <cstddef>
#include <string>

namespace sonicsim {

// Scenarios, latency model files, config.pbtxt, tolerance files.
inline constexpr std::size_t kMaxConfigFileBytes = std::size_t{16} << 20;  // 16 MiB
// Site logs and measurements: event CSVs, condor_history, Prometheus scrapes, perf_analyzer and
// calibration CSVs, sweep point files.
inline constexpr std::size_t kMaxLogFileBytes = std::size_t{512} << 20;  // 512 MiB

// The file's bytes. Errors are InputErrors naming the file at `location` ("" for the whole file,
// or e.g. "line 1" for line-oriented formats).
std::string read_input_file(const std::string& path, std::size_t max_bytes, const std::string& location = "");

}  // namespace sonicsim
