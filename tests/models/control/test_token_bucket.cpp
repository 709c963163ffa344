// Envoy's listener token bucket, against sequences worked out by hand (SuperSONIC's settings when
// enabled: 5 tokens, 1 more every 12 s).
#include <doctest/doctest.h>

#include "models/control/token_bucket.hpp"

using namespace sonicsim;

TEST_CASE("the token bucket admits its capacity at once, then one connection per fill interval") {
  TokenBucket bucket({5, 1, 12});
  int accepted = 0;
  for (int i = 0; i < 7; ++i) accepted += bucket.take(0) ? 1 : 0;
  CHECK(accepted == 5);            // full at the start
  CHECK_FALSE(bucket.take(11.9));  // no tick yet
  CHECK(bucket.take(12));          // the tick at 12 s adds one
  CHECK_FALSE(bucket.take(12));
  // Ticks at 24, 36, 48, 60 s: four tokens by 60 s.
  accepted = 0;
  for (int i = 0; i < 6; ++i) accepted += bucket.take(60) ? 1 : 0;
  CHECK(accepted == 4);
  // A long idle stretch fills it, never above the capacity.
  accepted = 0;
  for (int i = 0; i < 10; ++i) accepted += bucket.take(1e7) ? 1 : 0;
  CHECK(accepted == 5);
}

TEST_CASE("several tokens per fill, capped at the capacity") {
  TokenBucket bucket({3, 2, 1});
  CHECK(bucket.take(0));
  CHECK(bucket.take(0));
  CHECK(bucket.take(0));
  CHECK_FALSE(bucket.take(0.5));
  CHECK(bucket.take(1));  // +2
  CHECK(bucket.take(1));
  CHECK_FALSE(bucket.take(1));
  CHECK(bucket.take(5));  // +8, capped at 3
  CHECK(bucket.take(5));
  CHECK(bucket.take(5));
  CHECK_FALSE(bucket.take(5));
}
