#pragma once
// The names of the platform section's choices, each table declared once: the readers read them
// (platform_reader, autoscaling_reader, proxy_reader) and what writes scenario keys (a SuperSONIC
// values file, reader/supersonic/) writes them with choice_name.
#include "models/control/hpa.hpp"
#include "models/control/request_balancer.hpp"
#include "models/io/json/choice.hpp"
#include "models/scenario/platform.hpp"
#include "models/scenario/scaling_metric.hpp"

namespace sonicsim {

inline constexpr Choice<LoadBalancing> kLoadBalancing[]{
    {"per_job", LoadBalancing::PerJob},
    {"round_robin", LoadBalancing::RoundRobin},
    {"random", LoadBalancing::Random},
    {"least_request", LoadBalancing::LeastRequest},
};
inline constexpr Choice<KernelSharing> kKernelSharing[]{{"time_slicing", KernelSharing::TimeSlicing},
                                                        {"occupancy", KernelSharing::Occupancy}};
inline constexpr Choice<ScalingMetric> kScalingMetrics[]{
    {"supersonic_load", ScalingMetric::SupersonicLoad},
    {"supersonic_load_summed", ScalingMetric::SupersonicLoadSummed},
    {"queue_time_per_request", ScalingMetric::QueueTimePerRequest},
    {"gpu_utilization", ScalingMetric::GpuUtilization},
    {"in_flight_per_replica", ScalingMetric::InFlightPerReplica},
};
inline constexpr Choice<MetricTarget> kMetricTypes[]{{"Value", MetricTarget::Value},
                                                     {"AverageValue", MetricTarget::AverageValue}};
inline constexpr Choice<PolicySelect> kPolicySelects[]{
    {"max", PolicySelect::Max}, {"min", PolicySelect::Min}, {"disabled", PolicySelect::Disabled}};
inline constexpr Choice<ScalingPolicyKind> kPolicyTypes[]{{"pods", ScalingPolicyKind::Pods},
                                                          {"percent", ScalingPolicyKind::Percent}};

}  // namespace sonicsim
