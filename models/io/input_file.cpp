#include "models/io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "models/io/input_error.hpp"

namespace sonicsim {
namespace {

std::string size_text(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes, const std::string& location) {
  const FileDescriptor file(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0)
    throw InputError(path, location, std::string("cannot open the file (") + std::strerror(errno) + ")");
  struct stat info {};
  if (fstat(file.get(), &info) != 0)
    throw InputError(path, location, std::string("cannot read the file (") + std::strerror(errno) + ")");
  if (S_ISDIR(info.st_mode)) throw InputError(path, location, "is a directory, expected a file");
  if (S_ISREG(info.st_mode) && static_cast<std::size_t>(info.st_size) > max_bytes)
    throw InputError(path, location,
                     "the file has " + std::to_string(info.st_size) + " bytes, more than the " + size_text(max_bytes) +
                         " an input of this kind may have");
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(file.get(), buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, location, std::string("cannot read the file (") + std::strerror(errno) + ")");
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes)  // a stream that does not end
      throw InputError(path, location, "more than the " + size_text(max_bytes) + " an input of this kind may have");
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace sonicsim
