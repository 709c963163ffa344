#include "analysis/result_writers.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "analysis/triton_report.hpp"

namespace sonicsim {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File open_for_writing(const std::string& path) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
  return f;
}

const char* status_name(RequestStatus s) {
  switch (s) {
    case RequestStatus::Completed: return "completed";
    case RequestStatus::Rejected: return "rejected";
    case RequestStatus::InFlight: return "in_flight";
  }
  return "?";
}

}  // namespace

void write_events_csv(const std::string& path, const SimulationResults& r) {
  File f = open_for_writing(path);
  std::fputs("job,event,start_s,end_s,time_s,cpu_s,preprocess_s,cpu_fallback_s,inference_s,network_s,frontend_s,"
             "queue_s,gpu_s,requests,rejected_requests\n",
             f.get());
  for (const EventRecord& e : r.events)
    std::fprintf(f.get(), "%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%d\n", e.job, e.event,
                 e.start_s, e.end_s, e.time_s(), e.cpu_s, e.preprocess_s, e.fallback_s, e.inference_s, e.network_s,
                 e.frontend_s, e.queue_s, e.gpu_s, e.requests, e.rejected_requests);
}

void write_requests_csv(const std::string& path, const SimulationResults& r) {
  File f = open_for_writing(path);
  std::fputs("request,job,event,module,model,server,items,input_bytes,output_bytes,sent_s,arrived_s,enqueued_s,"
             "exec_start_s,exec_end_s,responded_s,received_s,batch,status\n",
             f.get());
  for (const RequestRecord& q : r.requests)
    std::fprintf(f.get(), "%lld,%d,%d,%s,%s,%s,%d,%.0f,%.0f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%lld,%s\n",
                 static_cast<long long>(q.id), q.job, q.event, r.module_names[q.module].c_str(),
                 r.model_names[q.model].c_str(), r.server_names[q.server].c_str(), q.items, q.input_bytes,
                 q.output_bytes, q.sent_s, q.arrived_s, q.enqueued_s, q.exec_start_s, q.exec_end_s, q.responded_s,
                 q.received_s, static_cast<long long>(q.batch), status_name(q.status));
}

void write_batches_csv(const std::string& path, const SimulationResults& r) {
  File f = open_for_writing(path);
  std::fputs("batch,server,model,instance,gpu,requests,items,start_s,end_s,kernel_s\n", f.get());
  for (const BatchRecord& b : r.batches)
    std::fprintf(f.get(), "%lld,%s,%s,%d,%d,%d,%d,%.6f,%.6f,%.6f\n", static_cast<long long>(b.id),
                 r.server_names[b.server].c_str(), r.model_names[b.model].c_str(), b.instance, b.gpu, b.requests,
                 b.units, b.start_s, b.end_s, b.end_s - b.start_s);
}

void write_results(const std::string& directory, const SimulationResults& results, const Summary& summary,
                   const Outputs& outputs) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw std::runtime_error(directory + ": cannot create the output directory: " + ec.message());
  const std::filesystem::path dir(directory);
  {
    std::ofstream out(dir / "summary.json");
    if (!out) throw std::runtime_error((dir / "summary.json").string() + ": cannot write");
    out << summary_to_json(summary).dump(2) << '\n';
  }
  if (outputs.events) write_events_csv((dir / "events.csv").string(), results);
  if (outputs.requests) write_requests_csv((dir / "requests.csv").string(), results);
  if (outputs.batches) write_batches_csv((dir / "batches.csv").string(), results);
  if (outputs.metrics) {
    for (std::size_t server = 0; server < summary.server_names.size(); ++server) {
      const auto path = dir / ("metrics-" + summary.server_names[server] + ".prom");
      std::ofstream out(path);
      if (!out) throw std::runtime_error(path.string() + ": cannot write");
      out << triton_prometheus_text(summary, static_cast<int>(server));
    }
  }
}

}  // namespace sonicsim
