#include "models/io/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include "models/io/text_format.hpp"

namespace sonicsim::units {
namespace {

struct Unit {
  std::string_view symbol;
  double factor;
};

constexpr std::array kDurationUnits{
    Unit{"ns", 1e-9}, Unit{"us", 1e-6},  Unit{"\u00b5s", 1e-6}, Unit{"ms", 1e-3},
    Unit{"s", 1.0},   Unit{"min", 60.0}, Unit{"h", 3600.0},
};

constexpr std::array kSizeUnits{
    Unit{"B", 1.0},
    Unit{"kB", 1e3},
    Unit{"KB", 1e3},
    Unit{"MB", 1e6},
    Unit{"GB", 1e9},
    Unit{"TB", 1e12},
    Unit{"KiB", 1024.0},
    Unit{"MiB", 1048576.0},
    Unit{"GiB", 1073741824.0},
    Unit{"TiB", 1099511627776.0},
    Unit{"b", 1.0 / 8},
    Unit{"kb", 1e3 / 8},
    Unit{"Kb", 1e3 / 8},
    Unit{"Mb", 1e6 / 8},
    Unit{"Gb", 1e9 / 8},
    Unit{"Tb", 1e12 / 8},
};

constexpr std::array kBandwidthUnits{
    Unit{"bps", 1.0 / 8},   Unit{"kbps", 1e3 / 8},  Unit{"Kbps", 1e3 / 8}, Unit{"Mbps", 1e6 / 8}, Unit{"Gbps", 1e9 / 8},
    Unit{"Tbps", 1e12 / 8}, Unit{"b/s", 1.0 / 8},   Unit{"kb/s", 1e3 / 8}, Unit{"Kb/s", 1e3 / 8}, Unit{"Mb/s", 1e6 / 8},
    Unit{"Gb/s", 1e9 / 8},  Unit{"Tb/s", 1e12 / 8}, Unit{"Bps", 1.0},      Unit{"kBps", 1e3},     Unit{"KBps", 1e3},
    Unit{"MBps", 1e6},      Unit{"GBps", 1e9},      Unit{"TBps", 1e12},    Unit{"B/s", 1.0},      Unit{"kB/s", 1e3},
    Unit{"KB/s", 1e3},      Unit{"MB/s", 1e6},      Unit{"GB/s", 1e9},     Unit{"TB/s", 1e12},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

template <std::size_t N>
double parse_with(std::string_view text, const std::array<Unit, N>& table, const char* what, const char* example) {
  const std::string_view s = trim(text);
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc{} || end == s.data()) {
    throw UnitError(std::string("expected ") + what + " with a unit (e.g. \"" + example + "\"), got \"" +
                    std::string(text) + "\"");
  }
  const std::string_view symbol = trim(std::string_view(end, s.data() + s.size() - end));
  if (symbol.empty()) {
    throw UnitError(std::string("expected ") + what + " with a unit (e.g. \"" + example +
                    "\"), got the bare number \"" + std::string(text) + "\"");
  }
  for (const Unit& unit : table) {
    if (unit.symbol == symbol) {
      const double si = value * unit.factor;
      if (!std::isfinite(value) || value < 0 || !std::isfinite(si)) {
        const std::string_view noun = std::string_view(what).substr(2);  // "a duration" -> "duration"
        throw UnitError("expected a non-negative, finite " + std::string(noun) + ", got \"" + std::string(text) + "\"");
      }
      return si;
    }
  }
  std::string known;
  for (const Unit& unit : table) known += (known.empty() ? "" : ", ") + std::string(unit.symbol);
  throw UnitError(std::string("unknown unit \"") + std::string(symbol) + "\" in \"" + std::string(text) +
                  "\" (expected " + what + "; units: " + known + ")");
}

}  // namespace

double parse_duration_s(std::string_view text) { return parse_with(text, kDurationUnits, "a duration", "12ms"); }

double parse_bytes(std::string_view text) { return parse_with(text, kSizeUnits, "a data size", "15.6MB"); }

double parse_bandwidth_Bps(std::string_view text) { return parse_with(text, kBandwidthUnits, "a bandwidth", "10Gbps"); }

double parse_fraction(std::string_view text) {
  const bool percent = text.ends_with('%');
  const std::string_view digits = percent ? text.substr(0, text.size() - 1) : text;
  double value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  const bool number = !digits.empty() && error == std::errc() && end == digits.data() + digits.size() &&
                      std::isfinite(value) && value >= 0;
  if (!number || (!percent && value >= 1))
    throw UnitError("expected a fraction below 1 (0.05) or a percentage (5%), got \"" + std::string(text) + "\"" +
                    (number ? " (write " + std::string(text) + "% for a percentage)" : ""));
  return percent ? value / 100 : value;
}

std::string format_duration(double seconds) {
  if (seconds >= 1.0 || seconds == 0.0) return printf_string("%.3f s", seconds);
  if (seconds >= 1e-3) return printf_string("%.3f ms", seconds * 1e3);
  return printf_string("%.3f us", seconds * 1e6);
}

std::string format_bandwidth(double bytes_per_s) {
  const double bits = bytes_per_s * 8;
  if (bits >= 1e9) return printf_string("%.3g Gbps", bits / 1e9);
  if (bits >= 1e6) return printf_string("%.3g Mbps", bits / 1e6);
  return printf_string("%.3g kbps", bits / 1e3);
}

}  // namespace sonicsim::units
