#include "tests/support/input_failure.hpp"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace sonicsim::test {

std::string write_scratch_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("sonicsim-tests-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace sonicsim::test
