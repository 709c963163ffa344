#include "analysis/outputs/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <stdexcept>

namespace sonicsim {
namespace {

// Only a regular file is removed: an output named /dev/full stays a device.
void remove_partial(const std::string& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) unlink(path.c_str());
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)), file_(std::fopen(path_.c_str(), "w")) {
  if (!file_) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (!file_) return;
  std::fclose(file_);
  remove_partial(path_);
}

void OutputFile::fail(int error) {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  remove_partial(path_);
  throw std::runtime_error(path_ + ": cannot write: " + std::strerror(error != 0 ? error : EIO));
}

void OutputFile::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail(errno);
}

void OutputFile::printf(const char* format, ...) {
  std::va_list arguments;
  va_start(arguments, format);
  const int written = std::vfprintf(file_, format, arguments);
  va_end(arguments);
  if (written < 0) fail(errno);
}

void OutputFile::close() {
  errno = 0;
  const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_);
  const int flush_error = errno;
  const bool closed = std::fclose(file_) == 0;
  const int close_error = errno;
  file_ = nullptr;
  if (!flushed || !closed) {
    remove_partial(path_);
    throw std::runtime_error(path_ + ": cannot write: " +
                             std::strerror(!flushed && flush_error ? flush_error
                                           : close_error           ? close_error
                                                                   : EIO));
  }
}

void write_file(const std::string& path, std::string_view text) {
  OutputFile file(path);
  file.write(text);
  file.close();
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace sonicsim
