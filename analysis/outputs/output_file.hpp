#pragma once
// Output files whose every write is checked: a full disk or an unwritable file is an error naming
// the file, never a result silently cut short. A file that could not be written whole is removed.
#include <cstdio>
#include <string>
#include <string_view>

namespace sonicsim {

class OutputFile {
 public:
  // Throws std::runtime_error if the file cannot be created.
  explicit OutputFile(std::string path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Without a successful close() (an exception on the way), the partial file is removed.
  ~OutputFile();

  void write(std::string_view text);
  [[gnu::format(printf, 2, 3)]] void printf(const char* format, ...);
  // Flushes and closes; throws std::runtime_error naming the file if any write failed.
  void close();

 private:
  [[noreturn]] void fail(int error);

  std::string path_;
  std::FILE* file_;
};

// The whole text as the file's content.
void write_file(const std::string& path, std::string_view text);

// A CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or a line break.
std::string csv_field(std::string_view text);

}  // namespace sonicsim
