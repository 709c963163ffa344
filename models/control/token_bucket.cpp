#include "models/control/token_bucket.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

bool TokenBucket::take(double now_s) {
  const auto ticks = static_cast<std::int64_t>(std::floor(now_s / spec_.fill_interval_s));
  if (ticks > fills_) {
    // Saturating: a long idle stretch fills the bucket, whatever the product would be.
    const std::int64_t missed = ticks - fills_;
    const std::int64_t room = spec_.max_tokens - tokens_;
    tokens_ = missed >= (room + spec_.tokens_per_fill - 1) / spec_.tokens_per_fill
                  ? spec_.max_tokens
                  : std::min<std::int64_t>(spec_.max_tokens, tokens_ + missed * spec_.tokens_per_fill);
    fills_ = ticks;
  }
  if (tokens_ == 0) return false;
  --tokens_;
  return true;
}

}  // namespace sonicsim
