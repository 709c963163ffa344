#pragma once
// Upper bounds on what an input may ask for. Each keeps a run's memory and time bounded and every
// quantity finite through unit conversion and arithmetic; none comes near what a real farm needs.
// scenarios/README.md ("Limits") lists them; the parsers refuse anything beyond with an InputError
// naming the JSON pointer.
#include <cstdint>

namespace sonicsim::limits {

// Quantities with units.
inline constexpr double kMaxDurationS = 1e8;         // any duration: about 3.2 years
inline constexpr double kMaxBytes = 1e15;            // any data size: 1 PB (per item, per request, TCP window)
inline constexpr double kMinBandwidthBps = 1.0 / 8;  // 1 bit/s
inline constexpr double kMaxBandwidthBps = 1e15;     // 8 Pbit/s
inline constexpr double kMinCpuSpeed = 1e-6;         // relative to the reference CPU
inline constexpr double kMaxCpuSpeed = 1e6;
inline constexpr double kMinFactor = 1e-6;  // SimGrid's latency and bandwidth factors
inline constexpr double kMaxFactor = 1e6;
inline constexpr double kMaxStackBytes = 64.0 * 1024 * 1024;  // per simulated actor
// A time a log or a Prometheus export writes: Unix seconds up to the year 5138 (or seconds from
// the log's own start, within the same bound either side of 0), so that differences stay exact to
// the microsecond.
inline constexpr double kMaxLogTimeS = 1e11;

// Sizes of the simulated system. SimGrid gives every job, instance, frontend thread and client an
// actor with a stack of its own, and every node and GPU a host.
inline constexpr std::int64_t kMaxActors = 300'000;
inline constexpr std::int64_t kMaxHosts = 200'000;
inline constexpr int kMaxNodesPerPool = 100'000;
// Cores of a node, and so a job's threads; a job's streams (events it has in flight at once). What
// runs at once on one node is what costs: SimGrid's max-min solver re-solves every execution of a
// host and every transfer of a link when one of them starts or ends. A node of 5,000 busy cores
// (5,000 one-thread jobs or one job of 5,000 streams, one event each) takes 30 to 45 s of CPU time;
// one job of 10,000 streams had not finished after 180 s (docs/benchmark.md, "Limits that run").
inline constexpr int kMaxCoresPerNode = 5'000;
inline constexpr int kMaxStreamsPerJob = 5'000;
inline constexpr int kMaxServersPerGroup = 10'000;
inline constexpr int kMaxGpusPerServer = 1'024;
inline constexpr int kMaxInstancesPerGroup = 1'024;  // instance_group.count, instances_per_gpu
inline constexpr int kMaxFrontendThreads = 1'024;
inline constexpr int kMaxBatchSize = 1 << 24;     // max_batch_size: units of two batches still fit an int
inline constexpr int kMaxPriorityLevels = 1'000;  // the scheduler keeps a queue per level
// Requests outstanding per job (per stream): the stream waits for any of them with SimGrid 3.32's
// wait_any, whose cost is linear in the activities waited for, so each request costs in proportion
// to in_flight. 10,000 requests all in flight at once take 32 s of CPU time; 20,000, 146 s.
inline constexpr int kMaxInFlight = 10'000;
inline constexpr int kMaxAllowedTries = 1'000;                   // a client's attempts per request on one server
inline constexpr int kMaxResubmit = 1'000;                       // submissions of a failed job
inline constexpr int kMaxFailureTimes = 100'000;                 // listed failure times of a server group
inline constexpr std::int64_t kMaxServerFailures = 100'000;      // server failures a run may simulate
inline constexpr std::int64_t kMaxRequestsInFlight = 2'000'000;  // over all jobs (about 1 KB each)
// A perf_analyzer request-rate level's requests in flight at once (each an actor with its stack;
// within what Linux allows with stack guard pages): reached only when the server does not keep up.
inline constexpr std::int64_t kMaxPerfRequestsInFlight = 25'000;

// Work. A run keeps every event in memory (about 100 bytes each) for its statistics, and every
// request and batch it writes out; these bounds keep that under a few GB.
inline constexpr std::int64_t kMaxEvents = 20'000'000;
inline constexpr std::int64_t kMaxRecordedRequests = 20'000'000;  // with "requests" in the outputs
inline constexpr std::int64_t kMaxRecordedBatches = 20'000'000;   // with "batches" in the outputs
inline constexpr std::int64_t kMaxRequests = 1'000'000'000;       // requests a run may simulate
inline constexpr std::int64_t kMaxTimeseriesRows = 2'000'000;     // Prometheus scrapes of a run (about 100 bytes each)
inline constexpr std::int64_t kMaxSweepPoints = 100'000;
inline constexpr std::int64_t kMaxSubmittedJobs = 10'000'000;  // a batch-system workload (about 100 bytes each)

}  // namespace sonicsim::limits
