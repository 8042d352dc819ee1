// The timing phase: a fresh runner per validated variant, sampled interleaved until the stop rule holds.
#pragma once

#include "graphbench/core/base/elapsed.h"
#include "graphbench/core/clocks/conditions_log.h"
#include "graphbench/core/clocks/energy.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/workload.h"
#include "graphbench/core/sampling/sampler.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// `own_s` of the slowest rank where ranks agree (a collective: every rank calls it), else `own_s`.
double slowest_rank_s(const SamplingAgreement* agreement, double own_s);

// Under a limit for the whole case, the share of sampling's time kept for the energy blocks (--energy).
inline constexpr double kEnergyShare = 0.25;

struct TimedCase {
  std::vector<VariantRecord> variants;  // parallel to runners and timed
  std::vector<std::unique_ptr<VariantRunner>> runners;
  std::vector<TimedVariant> timed;
  std::string stop_reason;
  // CUDA, parallel to timed: the GPU's state around each variant's samples and its energy readings.
  std::vector<ConditionsLog> conditions;
  std::optional<double> sm_clock_reference_mhz;
  std::vector<EnergyReadings> energy;
  int min_samples = 0;  // the case's min_samples: a variant with fewer has no interval
  std::optional<L2Cache> l2;  // on a CUDA device
};

// The probe of a case under a limit for the whole of it (core/sampling/case_budget.h): eager's step
// timed first, again where it left room in `limit_s` (a first step pays one-time costs: LibTorch
// 2.11's first CPU GELU took 1.4 s, then 3 ms), the shorter counting; ranks: the slowest's time.
double probe_eager_step_s(CaseInstance& instance, const std::vector<VariantRecord>& runnable, double limit_s,
                          bool cuda, const SamplingAgreement* agreement = nullptr);

// What this CPU does at the most (roofline_too_long_reason), measured once per process: a 512 x 512
// matrix product and a 32 MiB copy, the best of three each.
struct DevicePeaks {
  double flops_per_s = 0.0;
  double bytes_per_s = 0.0;
};
const DevicePeaks& cpu_peaks();

// Times the variants still ok; a runner that cannot be made fails its record. `agreement`: ranks
// sampling together, or null. `time_left_s`: what is left of the case's limit; sampling gets that
// less the runners' making and kEnergyShare for the energy blocks (none: the whole limit).
TimedCase time_variants(CaseInstance& instance, const std::vector<VariantRecord>& variants, const CaseSpec& spec,
                        const CaseContext& context, const SamplingAgreement* agreement = nullptr,
                        std::optional<double> time_left_s = std::nullopt);

// Under a limit for the whole case, what is left of a phase's share since it `started`; else none.
std::optional<double> phase_time_left_s(const CaseSpec& spec, const CaseContext& context,
                                        std::chrono::steady_clock::time_point started);

}  // namespace graphbench
