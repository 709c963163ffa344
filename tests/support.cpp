#include "tests/support.hpp"
#include "tests/records_json.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "models/scenario_parser.hpp"
#include "sim/simulation.hpp"

namespace sonicsim {
namespace test {

nlohmann::json base_scenario() {
  return nlohmann::json::parse(R"({
    "name": "test",
    "platform": {
      "worker_pools": [{"name": "w", "nodes": 1, "cores_per_node": 1, "cpu_speed": 1.0,
                        "nic": {"bandwidth": "10Gbps", "latency": "10us"}}],
      "site_uplink": {"bandwidth": "1Gbps", "latency": "100us"},
      "wan": {"bandwidth": "5Gbps", "latency": "1ms"},
      "servers": [{"name": "s", "count": 1, "gpus_per_server": 1, "gpu": "T4",
                   "nic": {"bandwidth": "10Gbps", "latency": "10us"}, "models": ["m"]}]
    },
    "models": {
      "m": {"input_bytes_per_item": "4000B", "output_bytes_per_item": "400B", "max_batch_size": 1000,
            "instances_per_gpu": 1, "kernel_latency": {"type": "affine", "intercept": "1ms", "per_item": "10us"}}
    },
    "workload": {
      "jobs": 1, "events_per_job": 1, "start": {"pattern": "all_at_once"},
      "modules": [
        {"type": "cpu", "name": "reco", "time": "2s"},
        {"type": "inference", "name": "ml", "model": "m", "items_per_event": 1000, "items_per_request": 300,
         "preprocess": "0.5s", "in_flight": 1}
      ]
    },
    "simulation": {"seed": 7, "network": {"model": "CM02", "tcp_gamma": "0B", "crosstraffic": false}}
  })");
}

Scenario parse(const nlohmann::json& document) { return parse_scenario(document, "test.json"); }

SimulationResults simulate_isolated(const Scenario& scenario) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    int code = 0;
    try {
      const std::string text = nlohmann::json(simulate(scenario)).dump();
      for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
    } catch (...) {
      code = 3;
    }
    close(fds[1]);
    _exit(code);
  }
  close(fds[1]);
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("the simulation child process failed (status " + std::to_string(status) + ")");
  return nlohmann::json::parse(text).get<SimulationResults>();
}

}  // namespace test
}  // namespace sonicsim
