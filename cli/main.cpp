// sonicsim: simulates CPU grid jobs that offload inference to GPU servers (the SONIC pattern).
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options/errors.hpp>

#include "cli/analytic_command.hpp"
#include "cli/calibrate_command.hpp"
#include "cli/plan/plan_command.hpp"
#include "cli/run_command.hpp"
#include "cli/sweep/sweep_command.hpp"
#include "cli/validate_command.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/message_text.hpp"
#include "sim/simulation.hpp"

namespace {

const char* const kUsage =
    "usage: sonicsim COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  run SCENARIO.json    simulate a scenario; summary on the terminal, --output DIR for files\n"
    "  sweep SCENARIO.json  run a scenario over a grid of --set values, one process per point\n"
    "  plan SCENARIO.json   the CPU:GPU ratio, the job cap, what saturates first, the speed-up\n"
    "  analytic SCENARIO.json  the closed-form t_SONIC model next to the simulation\n"
    "  validate SCENARIO.json LOG...  measured vs simulated, with tolerances (exit 1 on failure)\n"
    "  calibrate FILE...    fit kernel-latency models tau(batch) to measurements; --output MODEL.json\n"
    "  version              sonicsim's version and the SimGrid it runs on (also --version)\n"
    "\n"
    "`sonicsim COMMAND --help` describes a command's options.\n";

// Every error is one line, whatever user text it echoes.
int report(const std::exception& e, int exit_code) {
  std::cerr << "sonicsim: error: " << sonicsim::one_line(e.what()) << '\n';
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  if (command == "--version" || command == "version") {  // SONICSIM_VERSION: CMakeLists.txt's project(VERSION)
    std::cout << "sonicsim " SONICSIM_VERSION " (" << sonicsim::simulation_library_version() << ")\n";
    return 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (command == "run") return sonicsim::cli::run_command(rest);
    if (command == "plan") return sonicsim::cli::plan_command(rest);
    if (command == "analytic") return sonicsim::cli::analytic_command(rest);
    if (command == "validate") return sonicsim::cli::validate_command(rest);
    if (command == "sweep") return sonicsim::cli::sweep_command(rest);
    if (command == "calibrate") return sonicsim::cli::calibrate_command(rest);
    std::cerr << "sonicsim: error: unknown command \"" << sonicsim::printable(command)
              << "\" (expected run, sweep, plan, analytic, validate, calibrate or version; see sonicsim --help)\n";
    return 2;
  } catch (const sonicsim::InputError& e) {
    return report(e, 2);
  } catch (const boost::program_options::error& e) {
    return report(e, 2);
  } catch (const std::invalid_argument& e) {
    return report(e, 2);
  } catch (const std::bad_alloc&) {
    std::cerr << "sonicsim: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    return report(e, 1);
  }
}
