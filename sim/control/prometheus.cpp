#include "sim/control/prometheus.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

std::int64_t to_ms(double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1000)); }

std::int64_t now_ms() { return to_ms(sg4::Engine::get_clock()); }

void drop_older_than(PromSeries& series, std::int64_t keep_from_ms) {
  const auto first_kept =
      std::find_if(series.begin(), series.end(), [keep_from_ms](const PromSample& s) { return s.t_ms > keep_from_ms; });
  series.erase(series.begin(), first_kept);
}

}  // namespace

Prometheus::Prometheus(const Scenario& scenario, const FarmPlatform& farm,
                       std::vector<std::unique_ptr<InferenceServer>>& servers, const RequestBalancer& balancer,
                       Recorder& recorder)
    : scenario_(scenario), farm_(farm), servers_(servers), balancer_(balancer), recorder_(recorder) {
  if (scenario.platform.proxy && scenario.platform.proxy->gate) keep_s_ = scenario.platform.proxy->gate->window_s;
  if (const ServerGroup* group = scenario.autoscaled_group())
    keep_s_ = std::max(keep_s_, group->autoscaling->metric_window_s);
  for (std::size_t s = 0; s < farm.servers.size(); ++s) add_series(static_cast<int>(s));
}

void Prometheus::add_series(int server) {
  for (std::size_t m = 0; m < scenario_.models.size(); ++m)
    if (const TritonModelStats* stats = recorder_.find_triton(server, static_cast<int>(m)))
      for (const auto& [gpu, counters] : stats->series) {
        triton_.push_back({server, static_cast<int>(m), gpu, true, counters});
        queue_duration_us_.emplace_back();
        exec_count_.emplace_back();
        request_success_.emplace_back();
      }
  const double now = sg4::Engine::get_clock();
  for (std::size_t g = 0; g < farm_.servers[static_cast<std::size_t>(server)].gpus.size(); ++g)
    gpus_.push_back({server, static_cast<int>(g), true, recorder_.gpu_busy_s(server, static_cast<int>(g), now), {}});
}

void Prometheus::pod_started(int server) {
  for (TritonLabels& s : triton_)
    if (s.server == server) s.live = false;
  for (GpuSeries& s : gpus_)
    if (s.server == server) s.live = false;
  add_series(server);
}

void Prometheus::start() {
  sg4::Actor::create("prometheus", farm_.proxy ? farm_.proxy : farm_.servers.front().host, [this] {
    scrape_forever();
  })->daemonize();
}

// Scrapes at 0, interval, 2 x interval, ...
void Prometheus::scrape_forever() {
  const double interval = scenario_.platform.scrape_interval_s;
  for (std::int64_t k = 0;; ++k) {
    sg4::this_actor::sleep_until(static_cast<double>(k) * interval);
    scrape(now_ms());
    if (after_scrape_) after_scrape_();
  }
}

void Prometheus::scrape(std::int64_t t_ms) {
  const std::int64_t keep_from = t_ms - to_ms(keep_s_);
  const double now = sg4::Engine::get_clock();
  for (std::size_t i = 0; i < triton_.size(); ++i) {
    const TritonLabels& s = triton_[i];
    if (s.live && servers_[static_cast<std::size_t>(s.server)]->up()) {
      const TritonPromSeries& c = recorder_.triton(s.server, s.model).series.at(s.gpu);
      queue_duration_us_[i].push_back({t_ms, static_cast<double>(c.queue_duration_us - s.baseline.queue_duration_us)});
      exec_count_[i].push_back({t_ms, static_cast<double>(c.exec_count - s.baseline.exec_count)});
      request_success_[i].push_back({t_ms, static_cast<double>(c.request_success - s.baseline.request_success)});
    }
    for (PromSeries* series : {&queue_duration_us_[i], &exec_count_[i], &request_success_[i]})
      drop_older_than(*series, keep_from);
  }
  for (GpuSeries& s : gpus_) {
    if (s.live && servers_[static_cast<std::size_t>(s.server)]->up())
      s.busy_s.push_back({t_ms, recorder_.gpu_busy_s(s.server, s.gpu, now) - s.baseline_s});
    drop_older_than(s.busy_s, keep_from);
  }
  forget_aged_out_series();
  // envoy_cluster_upstream_rq_active summed over the deployment's hosts, per ready replica.
  std::int64_t active = 0;
  int ready = 0;
  for (std::size_t s = 0; s < servers_.size(); ++s) {
    active += balancer_.active(static_cast<int>(s));
    ready += balancer_.ready(static_cast<int>(s)) ? 1 : 0;
  }
  in_flight_per_replica_ = ready > 0 ? std::optional<double>(static_cast<double>(active) / ready) : std::nullopt;
}

// A dead pod's series go once their samples have aged out of every window.
void Prometheus::forget_aged_out_series() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < triton_.size(); ++i) {
    if (!triton_[i].live && exec_count_[i].empty()) continue;
    if (kept != i) {  // a self-move would empty the series
      triton_[kept] = triton_[i];
      queue_duration_us_[kept] = std::move(queue_duration_us_[i]);
      exec_count_[kept] = std::move(exec_count_[i]);
      request_success_[kept] = std::move(request_success_[i]);
    }
    ++kept;
  }
  triton_.resize(kept);
  queue_duration_us_.resize(kept);
  exec_count_.resize(kept);
  request_success_.resize(kept);
  std::erase_if(gpus_, [](const GpuSeries& s) { return !s.live && s.busy_s.empty(); });
}

std::optional<double> Prometheus::supersonic_load_ms(double window_s) const {
  return sonicsim::supersonic_load_ms(queue_duration_us_, exec_count_, now_ms(), to_ms(window_s));
}

std::optional<double> Prometheus::requests_per_s(double window_s) const {
  return sum_of_rates(request_success_, now_ms(), to_ms(window_s));
}

// sum(rate(queue_duration_us)) / sum(rate(request_success)) / 1000; no value where PromQL's would
// be NaN or infinite.
std::optional<double> Prometheus::queue_ms_per_request(double window_s) const {
  const auto us = sum_of_rates(queue_duration_us_, now_ms(), to_ms(window_s));
  const auto requests = sum_of_rates(request_success_, now_ms(), to_ms(window_s));
  if (!us || !requests || !(*requests > 0)) return std::nullopt;
  return *us / *requests / 1000;
}

// avg(rate(busy seconds)): PromQL's avg over the series that have a rate.
std::optional<double> Prometheus::gpu_utilization(double window_s) const {
  double sum = 0;
  int count = 0;
  for (const GpuSeries& s : gpus_)
    if (const auto r = prometheus_rate(s.busy_s, now_ms(), to_ms(window_s))) {
      sum += *r;
      ++count;
    }
  if (count == 0) return std::nullopt;
  return sum / count;
}

std::optional<double> Prometheus::query(ScalingMetric metric, double window_s) const {
  switch (metric) {
    case ScalingMetric::SupersonicLoad: return supersonic_load_ms(window_s);
    case ScalingMetric::SupersonicLoadSummed:
      return sonicsim::supersonic_load_summed_ms(queue_duration_us_, exec_count_, now_ms(), to_ms(window_s));
    case ScalingMetric::QueueTimePerRequest: return queue_ms_per_request(window_s);
    case ScalingMetric::GpuUtilization: return gpu_utilization(window_s);
    case ScalingMetric::InFlightPerReplica: return in_flight_per_replica_;
  }
  return std::nullopt;
}

}  // namespace sonicsim::sim
