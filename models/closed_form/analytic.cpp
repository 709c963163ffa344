#include "models/closed_form/analytic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "models/io/text_format.hpp"

namespace sonicsim {
namespace {

const WorkerPool& first_pool(const Scenario& s) { return s.platform.worker_pools.front(); }

// The servers a model's requests go to.
std::vector<const ServerGroup*> serving(const Scenario& s, const std::string& model) {
  std::vector<const ServerGroup*> groups;
  for (const auto& g : s.platform.servers)
    if (std::find(g.models.begin(), g.models.end(), model) != g.models.end()) groups.push_back(&g);
  return groups;
}

struct RequestExpectation {
  double tau_s = 0, input_bytes = 0, output_bytes = 0;
};

// A request of `items` items of a model with a variable dim. Padded: every item is padded to the
// largest of the request, M, with P(M <= m) = F(m)^items; exact. Ragged: the request carries the sum
// S of its items' elements; bytes are exact in expectation, the kernel time is taken at E[S]
// (exact for an affine tau, a first-order approximation otherwise).
// An item's elements: their distribution, as probabilities() gives it, and their mean.
struct ElementCount {
  std::vector<std::pair<int, double>> probabilities;
  double mean = 0;
};

RequestExpectation expected_request(const ModelSpec& model, const ElementCount& elements, int items,
                                    const KernelLatency& tau) {
  RequestExpectation r;
  double mean_elements = 0;
  if (model.layout == TensorLayout::Padded) {
    double below = 0, cumulative = 0;
    for (const auto& [m, p] : elements.probabilities) {
      cumulative += p;
      const double at_most = std::pow(std::min(1.0, cumulative), items);
      const double p_max = at_most - below;
      below = at_most;
      mean_elements += p_max * m;
      r.tau_s += p_max * kernel_latency_s(tau, static_cast<double>(items) * m);
    }
    mean_elements *= items;
  } else {
    mean_elements = items * elements.mean;
    r.tau_s = kernel_latency_s(tau, mean_elements);
  }
  r.input_bytes = items * model.input_bytes_per_item + mean_elements * model.input_bytes_per_element;
  r.output_bytes = items * model.output_bytes_per_item + mean_elements * model.output_bytes_per_element;
  return r;
}

// Compute Input and Output of an execution of the request alone (no batching across jobs), on a
// device: Triton's gather, host-to-device copy and their return (models/scenario/request_path.hpp).
double staging_s(const ModelSpec& model, const RequestExpectation& r) {
  if (!model.staging) return 0;
  return model.staging->input_s(1, r.input_bytes, true) + model.staging->output_s(1, r.output_bytes, true);
}

}  // namespace

AnalyticModel analytic_model(const Scenario& s) {
  if (s.perf_analyzer)
    throw std::invalid_argument("the analytic model is for grid-job workloads, not perf_analyzer loads");
  AnalyticModel m;
  m.device_naming = s.device_naming;
  const WorkerPool& pool = first_pool(s);
  const NetworkModel& net = s.simulation.network;
  const double latency_factor = net.latency_factor.value_or(net.model == "LV08" ? 13.01 : 1.0);
  const double bandwidth_factor = net.bandwidth_factor.value_or(net.model == "LV08" ? 0.97 : 1.0);

  double upload_bytes = 0, download_bytes = 0;
  for (const auto& g : s.platform.servers) {
    m.gpus += g.count * g.gpus_per_server;
    if (g.frontend) m.frontend_threads += g.count * g.frontend->threads;
  }
  const ServerGroup* path_server = nullptr;
  for (const Module& module : s.workload.modules) {
    if (const auto* cpu = std::get_if<CpuModule>(&module)) {
      m.cpu_s += mean(cpu->time) / pool.cpu_speed;
      continue;
    }
    const auto& inference = std::get<InferenceModule>(module);
    const ModelSpec& model = s.models[static_cast<std::size_t>(inference.model)];
    const auto groups = serving(s, model.name);
    if (groups.empty()) {
      if (inference.cpu_fallback) m.cpu_fallback_s += mean(*inference.cpu_fallback) / pool.cpu_speed;
      continue;
    }
    path_server = groups.front();
    m.preprocess_s += mean(inference.preprocess) / pool.cpu_speed;
    const KernelLatency& tau = model.latency_for(groups.front()->gpu_type);
    // Expectations over the items an event brings (one term where they are fixed). An event of n
    // items sends k = ceil(n / items_per_request) requests: k - 1 full ones and a last that may be smaller.
    ElementCount elements;  // a model with a variable dim: computed once, used for every request size
    if (inference.elements_per_item)
      elements = {probabilities(*inference.elements_per_item), mean(*inference.elements_per_item)};
    for (const auto& [n, probability] : probabilities(inference.items_per_event)) {
      const std::int64_t k = inference.requests_for(n);
      if (k == 0) continue;
      m.requests_per_event += probability * static_cast<double>(k);
      for (const auto& [items, count] :
           {std::pair{inference.items_in_request(0, n), k - 1}, {inference.items_in_request(k - 1, n), 1}}) {
        const double weight = probability * static_cast<double>(count);
        RequestExpectation r;
        if (inference.elements_per_item) {  // a variable dim: expectations over the items' elements too
          r = expected_request(model, elements, items, tau);
          upload_bytes += weight * r.input_bytes;
          download_bytes += weight * r.output_bytes;
        } else {
          r = {kernel_latency_s(tau, items), items * model.input_bytes_per_item, items * model.output_bytes_per_item};
        }
        m.gpu_s += weight * (r.tau_s + staging_s(model, r));
        if (const auto& frontend = groups.front()->frontend) {
          const FrontendCost& cost = frontend->cost_for(s.client_protocol());
          m.frontend_s += weight * (cost.request_s(model.input_tensors(), r.input_bytes) +
                                    cost.response_s(model.output_tensors(), r.output_bytes));
        }
      }
    }
    if (inference.elements_per_item) continue;
    upload_bytes += mean(inference.items_per_event) * model.input_bytes_per_item;
    download_bytes += mean(inference.items_per_event) * model.output_bytes_per_item;
  }
  if (!path_server) return m;

  // Worker NIC -> site uplink -> WAN (if any) -> server NIC, and back.
  std::vector<LinkSpec> path = {pool.nic, s.platform.site_uplink};
  if (s.platform.wan) path.push_back(*s.platform.wan);
  path.push_back(path_server->nic);
  double one_way_latency = 0, narrowest = std::numeric_limits<double>::infinity();
  for (const LinkSpec& l : path) {
    one_way_latency += l.latency_s * latency_factor;
    narrowest = std::min(narrowest, l.bandwidth_Bps * bandwidth_factor);
  }
  m.flow_rate_Bps = narrowest;
  if (net.tcp_gamma_bytes > 0) m.flow_rate_Bps = std::min(narrowest, net.tcp_gamma_bytes / (2 * one_way_latency));
  m.round_trips_s = 2 * one_way_latency * m.requests_per_event;
  m.transfer_s = (upload_bytes + download_bytes) / m.flow_rate_Bps;

  // Links are full duplex: the busier direction (requests, to the servers) is the one that fills.
  const double bytes = std::max(upload_bytes, download_bytes);
  int servers = 0;
  for (const auto& g : s.platform.servers) servers += g.count;
  m.links.push_back({"site uplink", s.platform.site_uplink.bandwidth_Bps * bandwidth_factor, bytes, 1});
  if (s.platform.wan) m.links.push_back({"wan", s.platform.wan->bandwidth_Bps * bandwidth_factor, bytes, 1});
  m.links.push_back({"server NIC", path_server->nic.bandwidth_Bps * bandwidth_factor, bytes, 1.0 / servers});
  return m;
}

double gpu_knee_jobs(const AnalyticModel& m) {
  return m.gpu_s > 0 ? m.gpus * m.ideal_s() / m.gpu_s : std::numeric_limits<double>::infinity();
}

double frontend_knee_jobs(const AnalyticModel& m) {
  return m.frontend_s > 0 && m.frontend_threads > 0 ? m.frontend_threads * m.ideal_s() / m.frontend_s
                                                    : std::numeric_limits<double>::infinity();
}

double link_cap_jobs(const AnalyticModel& m, const SharedLink& link) {
  if (link.bytes_per_job_event <= 0 || link.jobs_per_link <= 0) return std::numeric_limits<double>::infinity();
  return link.bandwidth_Bps * m.ideal_s() / (link.bytes_per_job_event * link.jobs_per_link);
}

std::string describe_saturation(const AnalyticModel& m) {
  const DeviceWords words = device_words(m.device_naming);
  std::string text = printf_string("%ss saturate at %.1f jobs (%.1f per %s)", words.title, gpu_knee_jobs(m),
                                   m.gpus ? gpu_knee_jobs(m) / m.gpus : 0.0, words.label);
  if (m.frontend_threads > 0) text += printf_string(", frontends at %.0f jobs", frontend_knee_jobs(m));
  for (const SharedLink& link : m.links)
    text += printf_string(", %s at %.0f jobs", link.name.c_str(), link_cap_jobs(m, link));
  return text;
}

AnalyticPrediction analytic_prediction(const AnalyticModel& m, double jobs) {
  AnalyticPrediction p{m.ideal_s(), "CPU-bound", "cpu"};
  const DeviceWords words = device_words(m.device_naming);
  if (m.gpus > 0 && jobs * m.gpu_s / m.gpus > p.per_event_s)
    p = {jobs * m.gpu_s / m.gpus, std::string(words.label) + "-saturated", words.key};
  if (m.frontend_threads > 0 && jobs * m.frontend_s / m.frontend_threads > p.per_event_s)
    p = {jobs * m.frontend_s / m.frontend_threads, "frontend-saturated", "frontend"};
  for (const SharedLink& link : m.links) {
    const double t = jobs * link.jobs_per_link * link.bytes_per_job_event / link.bandwidth_Bps;
    if (link.jobs_per_link > 0 && t > p.per_event_s) p = {t, "network-saturated (" + link.name + ")", link.name};
  }
  return p;
}

}  // namespace sonicsim
