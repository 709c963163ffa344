#pragma once
// A network link of the platform: a NIC, the site uplink, the WAN, the proxy's NIC.

namespace sonicsim {

struct LinkSpec {
  double bandwidth_Bps = 0;
  double latency_s = 0;
};

}  // namespace sonicsim
