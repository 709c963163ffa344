#pragma once
// A request's path through Triton beside the kernel (docs/reference/triton.md §10): the protocol
// frontend's cost per request, per tensor and per byte, by the protocol the clients use, and the
// instance's Compute Input / Compute Output staging around the kernel. Times in s, rates in bytes/s.
#include <map>

namespace sonicsim {

// How clients hand tensors to the server: in gRPC or HTTP messages, or in a shared-memory region
// (system or CUDA) registered with the server, the message then carrying only the region's name.
enum class ClientProtocol { Grpc, Http, SystemShm, CudaShm };

// What the frontend's handler thread spends on one request (parsing it and its input tensors) and on
// one response (serialising its output tensors). A rate of 0 means no per-byte cost.
struct FrontendCost {
  double per_request_s = 0;
  double per_input_tensor_s = 0;
  double input_rate_Bps = 0;
  double per_response_s = 0;
  double per_output_tensor_s = 0;
  double output_rate_Bps = 0;

  double request_s(int tensors, double bytes) const {
    return per_request_s + tensors * per_input_tensor_s + (input_rate_Bps > 0 ? bytes / input_rate_Bps : 0);
  }
  double response_s(int tensors, double bytes) const {
    return per_response_s + tensors * per_output_tensor_s + (output_rate_Bps > 0 ? bytes / output_rate_Bps : 0);
  }
  bool costs_per_tensor() const { return per_input_tensor_s > 0 || per_output_tensor_s > 0; }
};

// Triton's protocol frontend (gRPC/HTTP handler threads): parsing a request and serialising its
// response happen there, outside Triton's request statistics, and hold one handler thread each.
struct FrontendSpec {
  int threads = 2;  // Triton's --grpc-infer-thread-count default
  // The flat keys: the cost of whatever protocol the clients use. Or one cost per protocol, of which
  // the clients' is used (the scenario reader checks it is given).
  FrontendCost any_protocol;
  std::map<ClientProtocol, FrontendCost> by_protocol;

  const FrontendCost& cost_for(ClientProtocol protocol) const {
    const auto it = by_protocol.find(protocol);
    return it != by_protocol.end() ? it->second : any_protocol;
  }
};

// Compute Input and Compute Output of one execution (docs/reference/triton.md §11, the backend's
// BackendInputCollector::FlushPendingPinned): with a pinned staging buffer, each request's inputs are
// copied (gathered) into it, then one copy takes the buffer to the device at the pinned rate;
// without one (pageable), each request's inputs are copied straight to the device at the pageable
// rate. Outputs go back symmetrically. A CPU instance only gathers (and scatters): no device copy.
// A rate of 0: no per-byte cost.
struct StagingSpec {
  double per_request_s = 0;     // each request's input copy
  double gather_rate_Bps = 0;   // host bytes copied into the staging buffer per second
  double per_response_s = 0;    // each request's output copy
  double scatter_rate_Bps = 0;  // host bytes copied out of the staging buffer per second
  bool pinned = true;           // Triton's input_pinned_memory / output_pinned_memory (default on)
  double host_to_device_pinned_Bps = 0, host_to_device_pageable_Bps = 0;
  double device_to_host_pinned_Bps = 0, device_to_host_pageable_Bps = 0;

  double input_s(int requests, double bytes, bool on_device) const {
    return requests * per_request_s +
           copies_s(bytes, gather_rate_Bps, host_to_device_pinned_Bps, host_to_device_pageable_Bps, on_device);
  }
  double output_s(int requests, double bytes, bool on_device) const {
    return requests * per_response_s +
           copies_s(bytes, scatter_rate_Bps, device_to_host_pinned_Bps, device_to_host_pageable_Bps, on_device);
  }

 private:
  static double per_byte(double bytes, double rate_Bps) { return rate_Bps > 0 ? bytes / rate_Bps : 0; }
  double copies_s(double bytes, double host_Bps, double pinned_Bps, double pageable_Bps, bool on_device) const {
    if (!on_device) return per_byte(bytes, host_Bps);
    return pinned ? per_byte(bytes, host_Bps) + per_byte(bytes, pinned_Bps) : per_byte(bytes, pageable_Bps);
  }
};

}  // namespace sonicsim
