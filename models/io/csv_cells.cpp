#include "models/io/csv_cells.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "models/io/input_error.hpp"

namespace sonicsim {

std::string cell_location(unsigned line, const std::string& column) {
  return "line " + std::to_string(line) + ", column \"" + column + "\"";
}

double number_cell(const std::string& path, unsigned line, const std::string& column, const char* text) {
  const char* end = text + std::strlen(text);
  double value = 0;
  const auto [stop, error] = std::from_chars(text, end, value);
  if (text == end || error != std::errc() || stop != end || !std::isfinite(value))
    throw InputError(path, cell_location(line, column), "expected a number, got \"" + std::string(text) + "\"");
  return value;
}

long long integer_cell(const std::string& path, unsigned line, const std::string& column, const char* text) {
  const char* end = text + std::strlen(text);
  long long value = 0;
  const auto [stop, error] = std::from_chars(text, end, value);
  if (text == end || error != std::errc() || stop != end)
    throw InputError(path, cell_location(line, column), "expected an integer, got \"" + std::string(text) + "\"");
  return value;
}

void rethrow_csv_error(const std::string& path, const io::error::base& error) {
  std::string location = "column line";  // libfccp gives no line number for header problems
  if (const auto* with_line = dynamic_cast<const io::error::with_file_line*>(&error);
      with_line && with_line->file_line > 0)
    location = "line " + std::to_string(with_line->file_line);
  if (const auto* with_column = dynamic_cast<const io::error::with_column_name*>(&error);
      with_column && with_column->column_name[0])
    location += std::string(", column \"") + with_column->column_name + "\"";
  throw InputError(path, location, error.what());
}

}  // namespace sonicsim
