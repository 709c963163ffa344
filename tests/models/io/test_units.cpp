#include <doctest/doctest.h>

#include "models/io/units.hpp"

using namespace sonicsim::units;

TEST_CASE("durations are converted to seconds") {
  CHECK(parse_duration_s("12ms") == doctest::Approx(0.012));
  CHECK(parse_duration_s("1.5s") == 1.5);
  CHECK(parse_duration_s("250us") == doctest::Approx(250e-6));
  CHECK(parse_duration_s("3 min") == 180.0);
  CHECK(parse_duration_s("2h") == 7200.0);
  CHECK(parse_duration_s("40ns") == doctest::Approx(40e-9));
  CHECK(parse_duration_s("1e-3s") == doctest::Approx(1e-3));
}

TEST_CASE("sizes distinguish bits from bytes and decimal from binary prefixes") {
  CHECK(parse_bytes("15.6MB") == doctest::Approx(15.6e6));
  CHECK(parse_bytes("4.1Gb") == doctest::Approx(4.1e9 / 8));  // gigabits
  CHECK(parse_bytes("4.1GB") == doctest::Approx(4.1e9));      // gigabytes
  CHECK(parse_bytes("64KiB") == 65536.0);
  CHECK(parse_bytes("9216B") == 9216.0);
}

TEST_CASE("bandwidths are converted to bytes per second") {
  CHECK(parse_bandwidth_Bps("100Gbps") == doctest::Approx(12.5e9));
  CHECK(parse_bandwidth_Bps("2 Gb/s") == doctest::Approx(0.25e9));
  CHECK(parse_bandwidth_Bps("1GBps") == doctest::Approx(1e9));
  CHECK(parse_bandwidth_Bps("800MB/s") == doctest::Approx(800e6));
}

TEST_CASE("bad quantities are rejected with a message saying what was expected") {
  CHECK_THROWS_WITH_AS(parse_duration_s("12"), doctest::Contains("bare number"), UnitError);
  CHECK_THROWS_WITH_AS(parse_duration_s("12 parsecs"), doctest::Contains("unknown unit \"parsecs\""), UnitError);
  CHECK_THROWS_WITH_AS(parse_duration_s("-3s"), doctest::Contains("non-negative"), UnitError);
  CHECK_THROWS_WITH_AS(parse_bandwidth_Bps("10GB"), doctest::Contains("bandwidth"), UnitError);
  CHECK_THROWS_AS(parse_bytes("lots"), UnitError);
  CHECK_THROWS_AS(parse_bytes(""), UnitError);
  CHECK_THROWS_AS(parse_duration_s("nan s"), UnitError);
}

TEST_CASE("a relative quantity is a fraction below 1 or a percentage; 5 is never read as 500%") {
  CHECK(parse_fraction("0.05") == doctest::Approx(0.05));
  CHECK(parse_fraction("5%") == doctest::Approx(0.05));
  CHECK(parse_fraction("150%") == doctest::Approx(1.5));
  CHECK(parse_fraction("0") == 0);
  CHECK_THROWS_WITH_AS(parse_fraction("5"),
                       "expected a fraction below 1 (0.05) or a percentage (5%), got \"5\" (write 5% for a percentage)",
                       UnitError);
  CHECK_THROWS_WITH_AS(parse_fraction("1"), doctest::Contains("(write 1% for a percentage)"), UnitError);
  for (const char* bad : {"", "%", "five", "-1%", "0.05 ", "nan%", "1e999%"})
    CHECK_THROWS_AS(parse_fraction(bad), UnitError);
}
