// The timing phase of a benchmark case: a fresh runner per validated variant (dropout on), sampled
// interleaved until the case's stop rule holds. The runners stay alive with the samples, so their
// counters and capture times can be read afterwards.
#pragma once

#include "graphbench/clocks/conditions_log.h"
#include "graphbench/clocks/energy.h"
#include "graphbench/runner/case_records.h"
#include "graphbench/runner/workload.h"
#include "graphbench/timing/sampler.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

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

// Times the variants whose records are still ok; a runner that cannot be made fails its record.
// `agreement`: the ranks of a data-parallel case sampling together (sampler.h), or null.
// `time_left_s`: what is left of the case's time limit (spec.sampling.max_time_s) after validation;
// the sampler's timeout is that less the time the runners took to make (none: the whole limit).
TimedCase time_variants(CaseInstance& instance, const std::vector<VariantRecord>& variants, const CaseSpec& spec,
                        const CaseContext& context, const SamplingAgreement* agreement = nullptr,
                        std::optional<double> time_left_s = std::nullopt);

}  // namespace graphbench
