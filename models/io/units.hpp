#pragma once
// Parsing of quantities written with explicit units, e.g. "12ms", "100Gbps", "15.6MB".
// Every parser returns SI base values: seconds, bytes, bytes per second.
#include <stdexcept>
#include <string>
#include <string_view>

namespace sonicsim::units {

class UnitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Durations: ns, us (or µs), ms, s, min, h.
double parse_duration_s(std::string_view text);

// Data sizes: B, kB/KB, MB, GB, TB, KiB, MiB, GiB, TiB (bytes) and b, kb/Kb, Mb, Gb, Tb (bits).
double parse_bytes(std::string_view text);

// Bandwidths, returned in bytes per second: bps, kbps/Kbps, Mbps, Gbps, Tbps (bits per second),
// Bps, kBps/KBps, MBps, GBps, TBps (bytes per second); "Gb/s" and "GB/s" spellings also work.
double parse_bandwidth_Bps(std::string_view text);

// A relative quantity (a tolerance, a precision, a utilisation): a fraction ("0.05") or a percentage
// ("5%"), returned as the fraction. A bare number must be below 1, so that "5" is refused rather than
// read as 500%; a percentage may be any finite number of at least 0.
double parse_fraction(std::string_view text);

// Human-readable forms used in messages and summaries.
std::string format_duration(double seconds);
std::string format_bandwidth(double bytes_per_s);

}  // namespace sonicsim::units
