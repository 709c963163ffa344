#include "analysis/outputs/record_rows.hpp"

#include "models/scenario/device_naming.hpp"

namespace sonicsim {
namespace {

const char* status_name(RequestStatus s) {
  switch (s) {
    case RequestStatus::Completed: return "completed";
    case RequestStatus::Rejected: return "rejected";
    case RequestStatus::InFlight: return "in_flight";
    case RequestStatus::Failed: return "failed";
  }
  return "?";
}

const char* failure_name(FailureCause c) {
  switch (c) {
    case FailureCause::None: return "";
    case FailureCause::Unavailable: return "unavailable";
    case FailureCause::DeadlineExceeded: return "deadline_exceeded";
    case FailureCause::Cancelled: return "cancelled";
  }
  return "?";
}

std::vector<std::string> fields(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& name : names) out.push_back(csv_field(name));
  return out;
}

}  // namespace

RecordNames record_names(const SimulationResults& r) {
  return {fields(r.header.module_names), fields(r.header.model_names), fields(r.header.server_names),
          r.header.device_naming, r.failures.has_value()};
}

RecordNames record_names(const RecordedNames& names, DeviceNaming device_naming, bool failures_possible) {
  return {fields(names.modules), fields(names.models), fields(names.servers), device_naming, failures_possible};
}

// Where requests can fail, three more columns: the attempt, the failure's cause, and whether the
// client tried again (1) after this attempt.
std::string request_columns(const RecordNames& names) {
  return std::string(
             "request,job,event,module,model,server,items,input_bytes,output_bytes,sent_s,arrived_s,enqueued_s,"
             "exec_start_s,exec_end_s,responded_s,received_s,batch,status") +
         (names.failures_possible ? ",attempt,failure,retried\n" : "\n");
}

std::string batch_columns(const RecordNames& names) {
  return std::string("batch,server,model,instance,") + device_words(names.device_naming).key +
         ",requests,items,start_s,end_s,kernel_s\n";
}

void write_request_row(OutputFile& f, const RequestRecord& q, const RecordNames& names) {
  static const std::string no_server;  // a request that failed before reaching any server
  f.printf("%lld,%d,%d,%s,%s,%s,%d,%.0f,%.0f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%lld,%s", static_cast<long long>(q.id),
           q.job, q.event, names.modules[q.module].c_str(), names.models[q.model].c_str(),
           (q.server >= 0 ? names.servers[q.server] : no_server).c_str(), q.items, q.input_bytes, q.output_bytes,
           q.sent_s, q.arrived_s, q.enqueued_s, q.exec_start_s, q.exec_end_s, q.responded_s, q.received_s,
           static_cast<long long>(q.batch), status_name(q.status));
  if (names.failures_possible)
    f.printf(",%d,%s,%d\n", q.attempt, failure_name(q.failure), q.retried ? 1 : 0);
  else
    f.write("\n");
}

void write_batch_row(OutputFile& f, const BatchRecord& b, const RecordNames& names) {
  f.printf("%lld,%s,%s,%d,%d,%d,%d,%.6f,%.6f,%.6f\n", static_cast<long long>(b.id), names.servers[b.server].c_str(),
           names.models[b.model].c_str(), b.instance, b.gpu, b.requests, b.units, b.start_s, b.end_s,
           b.end_s - b.start_s);
}

}  // namespace sonicsim
