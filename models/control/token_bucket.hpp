#pragma once
// Envoy's listener-level local rate limit (envoy.filters.listener.local_ratelimit, restated in
// docs/reference/supersonic.md §1.4(a)): a bucket of `max_tokens`, full at the start, refilled by
// `tokens_per_fill` at every `fill_interval` tick from the start (LocalRateLimiterImpl's fill
// timer), never above `max_tokens`. Each new connection takes a token; with none left it is closed.
// Pure: the caller says when a connection arrives.
#include <cstdint>

namespace sonicsim {

struct TokenBucketSpec {
  int max_tokens = 5;
  int tokens_per_fill = 1;
  double fill_interval_s = 12;
};

class TokenBucket {
 public:
  explicit TokenBucket(TokenBucketSpec spec) : spec_(spec), tokens_(spec.max_tokens) {}

  // A connection arrives at `now_s` (non-decreasing): whether it gets a token.
  bool take(double now_s);

 private:
  TokenBucketSpec spec_;
  std::int64_t tokens_;
  std::int64_t fills_ = 0;  // fill ticks already applied
};

}  // namespace sonicsim
