#pragma once
// Cells of the CSV inputs (calibration data, perf_analyzer tables, site logs, job traces): rows are split by libfccp,
// values are parsed here (exactly, with std::from_chars), and every problem names the file, line and column.
#define CSV_IO_NO_THREAD
#include <libfccp/csv.h>

#include <string>

namespace sonicsim {

// "line 7, column \"mean_s\"": where a problem is, for InputError.
std::string cell_location(unsigned line, const std::string& column);

// A finite decimal number; `what` describes what was expected (e.g. "a positive number of seconds").
double number_cell(const std::string& path, unsigned line, const std::string& column, const char* text);
long long integer_cell(const std::string& path, unsigned line, const std::string& column, const char* text);

// Rethrows a libfccp error (bad header, too few columns...) as an InputError naming file and line.
[[noreturn]] void rethrow_csv_error(const std::string& path, const io::error::base& error);

}  // namespace sonicsim
