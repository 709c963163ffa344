// The processor-sharing clock of uploads against closed forms, and against the plain fluid
// simulation (fluid_reference.hpp) on random traces: every end to 1e-9 of its transfer's duration.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "models/network/upload_sharing.hpp"
#include "tests/models/network/fluid_reference.hpp"

using namespace sonicsim::network;
using namespace sonicsim::network::fluid_reference;

namespace {

// |a - b| within 1e-9 of the reference transfer's duration.
void check_ends(const std::vector<TraceUpload>& trace, const std::vector<double>& got,
                const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  int checked = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    CAPTURE(i);
    if (want[i] == kNever) {
      CHECK(got[i] == kNever);
      continue;
    }
    const double duration = want[i] - trace[i].start_s;
    CHECK(std::fabs(got[i] - want[i]) <= 1e-9 * duration);
    ++checked;
  }
  CHECK(checked > 0);
}

struct Random {
  std::mt19937_64 engine;
  explicit Random(std::uint64_t seed) : engine(seed) {}
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(engine); }
  double exponential(double rate) { return std::exponential_distribution<double>(rate)(engine); }
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(engine); }
};

// `senders` sender links then `receivers` receiver links; uploads at Poisson times of `rate`
// (optionally in bursts of `burst`), sizes uniform in [0.5, 1.5] × `bytes`.
std::vector<TraceUpload> random_upload_trace(Random& rnd, int uploads, double rate, int burst, int senders,
                                             int receivers, int classes, double bytes, double cancel_share = 0) {
  std::vector<TraceUpload> trace;
  double t = 0;
  while (static_cast<int>(trace.size()) < uploads) {
    t += rnd.exponential(rate);
    for (int k = 0; k < burst && static_cast<int>(trace.size()) < uploads; ++k) {
      TraceUpload u{t, rnd.below(classes), rnd.below(senders), senders + rnd.below(receivers),
                    bytes * rnd.uniform(0.5, 1.5)};
      if (rnd.uniform(0, 1) < cancel_share) u.cancel_s = t + rnd.uniform(0, 4 * bytes / 1e8);
      trace.push_back(u);
    }
  }
  return trace;
}

}  // namespace

TEST_CASE("an upload alone ends after its latency phase and its bytes at its bound") {
  // 6 ms of latency phase, bound 250 MB/s below every link: 15.6 MB take 62.4 ms more.
  const TraceLinks links{12.5e9, {1.25e9, 4e9}, {{0.006, 250e6, 0.006}}};
  const std::vector<TraceUpload> trace{{1.0, 0, 0, 1, 15.6e6}};
  const std::vector<double> end = sharing_ends(links, trace);
  CHECK(end[0] == doctest::Approx(1.0 + 0.006 + 15.6e6 / 250e6).epsilon(1e-15));
}

TEST_CASE("the bandwidth factor scales the rate") {
  const TraceLinks links{12.5e9, {1.25e9, 4e9}, {{0.006, 250e6, 0.0}}, 0.97};
  const std::vector<double> end = sharing_ends(links, {{0.0, 0, 0, 1, 1e6}});
  CHECK(end[0] == doctest::Approx(1e6 / (0.97 * 250e6)).epsilon(1e-15));
}

TEST_CASE("uploads past the shared capacity are processor-shared") {
  // Shared capacity 100 B/s, no bounds, no latency, private links far larger. Sizes 100, 200, 300
  // started together: processor sharing ends them at 3 × 100 / 100 = 3 s, then 3 + 2 × 100 / 100
  // = 5 s, then 5 + 100 / 100 = 6 s.
  const TraceLinks links{100, {1e9, 1e9, 1e9, 1e9}, {{1, 0, 0}}};
  const std::vector<TraceUpload> trace{{0, 0, 0, 3, 100}, {0, 0, 1, 3, 200}, {0, 0, 2, 3, 300}};
  const std::vector<double> end = sharing_ends(links, trace);
  CHECK(end[0] == doctest::Approx(3).epsilon(1e-14));
  CHECK(end[1] == doctest::Approx(5).epsilon(1e-14));
  CHECK(end[2] == doctest::Approx(6).epsilon(1e-14));
}

TEST_CASE("routes of different latency share in proportion to one over their penalty") {
  // Penalties 1 and 2 on 90 B/s: rates 60 and 30 while both run. Both of 120 B: the first ends at
  // 2 s (the second has 60 left), which then runs alone at 90 B/s: 2 + 60 / 90 s.
  const TraceLinks links{90, {1e9, 1e9, 1e9}, {{1, 0, 0}, {2, 0, 0}}};
  const std::vector<double> end = sharing_ends(links, {{0, 0, 0, 2, 120}, {0, 1, 1, 2, 120}});
  CHECK(end[0] == doctest::Approx(2).epsilon(1e-14));
  CHECK(end[1] == doctest::Approx(2 + 60.0 / 90).epsilon(1e-14));
}

TEST_CASE("a receiver link that binds is shared exactly, and the others take the rest") {
  // Shared 10 B/s. A and B go to receiver link 3 of 3 B/s: 1.5 B/s each while C (to link 4 of
  // 100 B/s) gets 7 B/s. Sizes: A, B 3 B; C 21 B. A and B end at 2 s; C has then 7 left, alone at
  // 10 B/s: ends at 2.7 s.
  const TraceLinks links{10, {100, 100, 100, 3, 100}, {{1, 0, 0}}};
  const std::vector<TraceUpload> trace{{0, 0, 0, 3, 3}, {0, 0, 1, 3, 3}, {0, 0, 2, 4, 21}};
  const std::vector<double> end = sharing_ends(links, trace);
  CHECK(end[0] == doctest::Approx(2).epsilon(1e-14));
  CHECK(end[1] == doctest::Approx(2).epsilon(1e-14));
  CHECK(end[2] == doctest::Approx(2.7).epsilon(1e-14));
}

TEST_CASE("a cancelled upload leaves its share to the others") {
  // Two uploads of 100 B on 10 B/s: 5 B/s each; the second is cancelled at 4 s, the first then
  // has 80 B left at 10 B/s: ends at 12 s.
  const TraceLinks links{10, {1e9, 1e9, 1e9}, {{1, 0, 0}}};
  std::vector<TraceUpload> trace{{0, 0, 0, 2, 100}, {0, 0, 1, 2, 100}};
  trace[1].cancel_s = 4;
  const std::vector<double> end = sharing_ends(links, trace);
  CHECK(end[0] == doctest::Approx(12).epsilon(1e-14));
  CHECK(end[1] == kNever);
}

TEST_CASE("random traces end as the plain fluid simulation ends them") {
  // ProtoDUNE-like routes: 6 ms latency phase, TCP bound 250 MB/s, 15.6 MB requests; worker links
  // of 1.25 GB/s (five uploads at the bound fill one), server links of 4 GB/s.
  const RouteClass protodune{0.006, 250e6, 0.006};
  const RouteClass near{0.0012, 1.25e9, 0.0012};  // a nearer site: its bound is its worker link
  const RouteClass unbounded{0.003, 0, 0.003};    // TCP-gamma 0: no bound
  struct Case {
    const char* name;
    double shared_Bps;
    double worker_Bps;
    double server_Bps;
    std::vector<RouteClass> classes;
    double rate;  // uploads per second
    int burst;
    double factor;
    double cancel_share;
  };
  const std::vector<Case> cases{
      {"below capacity, Poisson", 12.5e9, 1.25e9, 4e9, {protodune}, 200, 1, 1.0, 0},
      {"at capacity, Poisson", 12.5e9, 1.25e9, 4e9, {protodune}, 800, 1, 1.0, 0},
      {"past capacity, Poisson", 12.5e9, 1.25e9, 4e9, {protodune}, 2000, 1, 1.0, 0},
      {"bursts past capacity", 12.5e9, 1.25e9, 4e9, {protodune}, 100, 20, 1.0, 0},
      {"worker links binding", 1e12, 0.6e9, 4e9, {protodune}, 400, 4, 1.0, 0},
      {"server links binding", 1e12, 1.25e9, 0.8e9, {protodune}, 600, 1, 1.0, 0},
      {"mixed latencies", 12.5e9, 1.25e9, 4e9, {protodune, near}, 900, 1, 0.97, 0},
      {"mixed latencies, links binding", 20e9, 0.7e9, 1.5e9, {protodune, near, unbounded}, 500, 3, 0.97, 0},
      {"no bound at all", 12.5e9, 1.25e9, 4e9, {unbounded}, 600, 2, 1.0, 0},
      {"cancellations", 12.5e9, 1.25e9, 4e9, {protodune, near}, 1500, 2, 1.0, 0.2},
  };
  for (const Case& c : cases) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const std::string name = c.name;
      CAPTURE(name);
      CAPTURE(seed);
      Random rnd(seed);
      const int senders = 12, receivers = 4;
      const std::vector<TraceUpload> trace = random_upload_trace(
          rnd, 400, c.rate, c.burst, senders, receivers, static_cast<int>(c.classes.size()), 15.6e6, c.cancel_share);
      std::vector<double> private_Bps(senders, c.worker_Bps);
      private_Bps.insert(private_Bps.end(), receivers, c.server_Bps);
      const TraceLinks links{c.shared_Bps, private_Bps, c.classes, c.factor};
      check_ends(trace, sharing_ends(links, trace), reference_ends(links, trace));
    }
  }
}

TEST_CASE("a clock busy for long is moved back to zero without moving any end") {
  // Uploads of 2 TB every 0.1 s on 4 TB/s shared, five times its capacity: the class's clock stays
  // busy for the whole 100 s and passes the 2^40 B at which it is rebased within the first second.
  Random rnd(5);
  std::vector<TraceUpload> trace;
  for (int k = 0; k < 200; ++k)
    trace.push_back({0.1 * k + rnd.uniform(0, 0.01), 0, rnd.below(8), 8 + rnd.below(2), 2e12 * rnd.uniform(0.5, 1.5)});
  const TraceLinks links{4e12, std::vector<double>(10, 1e15), {{0.001, 0, 0.001}}};
  check_ends(trace, sharing_ends(links, trace), reference_ends(links, trace));
}
