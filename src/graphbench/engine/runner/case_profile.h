// The profiling phase: a few steps of every timed variant under the profiler, the graphs' facts, and the
// check that a variant runs the kernels its workload says (a graph captured before TorchScript fused is
// not the optimised one). Without a profiler the profile is absent, never zero.
#pragma once

#include "graphbench/engine/runner/case_timing.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// Steps profiled per variant.
inline constexpr int kProfiledSteps = 10;

// CUPTI can drop activity records (CUDA 13.0): an incomplete profile is taken again up to this often.
inline constexpr int kProfileAttempts = 3;

// Fills `profile` and `graphs` of every timed record and fails those whose kernels per step differ
// from instance.expected_kernels_per_step; a profile never whole is left out with a warning.
void profile_variants(TimedCase& timed, const CaseInstance& instance, const CaseContext& context);

// The kernel check: the graph's kernel nodes first, else the profiler's; "" where it passes or cannot tell.
std::string kernel_check_failure(std::optional<int> expected, const std::vector<GraphFacts>& graphs,
                                 const std::optional<KernelProfile>& profile);

// Takes a profile until whole (device work, whole kernels per step, no fewer than the graph holds nor
// than the variant must launch); nullopt and a warning after kProfileAttempts, or at once without a
// profiler.
std::optional<KernelProfile> profile_until_whole(const std::function<std::optional<KernelProfile>()>& take,
                                                 const std::vector<GraphFacts>& graphs,
                                                 std::optional<int> expected_kernels,
                                                 std::vector<std::string>& warnings);

// A warning where the profiler saw fewer kernels per step than the graph holds, else "".
std::string profiler_visibility_warning(const std::vector<GraphFacts>& graphs, const std::optional<KernelProfile>& profile);

}  // namespace graphbench
