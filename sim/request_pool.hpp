#pragma once
// The in-flight request objects of a run. An answered request's object is reused for a later
// request, so a run holds as many as are in flight at once, not as many as it sends.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/request.hpp"

namespace sonicsim::sim {

class RequestPool {
 public:
  // A fresh request with the next request id (ids count from 0 in the order requests are made).
  InFlightRequest* new_request() {
    InFlightRequest* r;
    if (free_requests_.empty()) {
      r = all_requests_.emplace_back(std::make_unique<InFlightRequest>()).get();
    } else {
      r = free_requests_.back();
      free_requests_.pop_back();
      *r = InFlightRequest{};
    }
    r->record.id = next_request_id_++;
    return r;
  }
  // Nothing refers to `request` any more: a later new_request() may hand it out again.
  void recycle(InFlightRequest* request) { free_requests_.push_back(request); }

 private:
  std::int64_t next_request_id_ = 0;
  std::vector<std::unique_ptr<InFlightRequest>> all_requests_;  // owns every request ever allocated
  std::vector<InFlightRequest*> free_requests_;
};

}  // namespace sonicsim::sim
