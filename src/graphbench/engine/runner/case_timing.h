// The timing phase of a benchmark case: a fresh runner per validated variant (dropout on), sampled
// interleaved until the case's stop rule holds. The runners stay alive with the samples, so their
// counters and capture times can be read afterwards.
#pragma once

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

// Under a limit for the whole case, the share of the sampler's time kept for the energy blocks
// after it (--energy on; each block at most kEnergyBlockMaxSeconds).
inline constexpr double kEnergyShare = 0.25;

struct TimedCase {
  std::vector<VariantRecord> variants;  // parallel to runners and timed
  std::vector<std::unique_ptr<VariantRunner>> runners;
  std::vector<TimedVariant> timed;
  std::string stop_reason;
  // On a CUDA device, parallel to timed: the GPU's state around each variant's samples, and
  // (--energy on) its energy block's readings; empty elsewhere.
  std::vector<ConditionsLog> conditions;
  std::optional<double> sm_clock_reference_mhz;
  std::vector<EnergyReadings> energy;
  int min_samples = 0;  // the case's min_samples: a variant with fewer has no interval
  std::optional<L2Cache> l2;  // on a CUDA device
};

// The probe of a case under a limit that holds for the whole of it (core/sampling/case_budget.h): eager's
// step, timed, before anything else of the case runs; a second step wherever the first left room
// for one inside `limit_s` (a first step pays one-time costs: LibTorch 2.11's first CPU call of
// GELU took 1.4 s against 3 ms after it), the shorter counting. With an agreement (the ranks of a
// data-parallel case, whose steps hold collectives) every rank takes the same steps and the
// slowest rank's time counts.
double probe_eager_step_s(CaseInstance& instance, const std::vector<VariantRecord>& runnable, double limit_s,
                          bool cuda, const SamplingAgreement* agreement = nullptr);

// What this CPU does at the most (core/sampling/case_budget.h, roofline_too_long_reason), measured once per
// process with LibTorch's own threads: a matrix product of 512 x 512 (flops per second) and a copy
// of 32 MiB (bytes per second), the best of three each.
struct DevicePeaks {
  double flops_per_s = 0.0;
  double bytes_per_s = 0.0;
};
const DevicePeaks& cpu_peaks();

// Times the variants whose records are still ok; a runner that cannot be made fails its record.
// `agreement`: the ranks of a data-parallel case sampling together (sampler.h), or null.
// `time_left_s`: what is left of the case's time limit (spec.sampling.max_time_s) after validation;
// the sampler's timeout is that less the time the runners took to make (none: the whole limit),
// and less kEnergyShare of it kept for the energy blocks (--energy on), which then share it.
TimedCase time_variants(CaseInstance& instance, const std::vector<VariantRecord>& variants, const CaseSpec& spec,
                        const CaseContext& context, const SamplingAgreement* agreement = nullptr,
                        std::optional<double> time_left_s = std::nullopt);

// A phase of a data-parallel case under a limit for the whole case (context.time_limit_cuts_validation):
// what is left of its share (spec.sampling.max_time_s) since it `started`, its instance's set-up
// counted; none otherwise. For time_variants' `time_left_s`.
std::optional<double> phase_time_left_s(const CaseSpec& spec, const CaseContext& context,
                                        std::chrono::steady_clock::time_point started);

}  // namespace graphbench
