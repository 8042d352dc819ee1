// The profiling phase of a benchmark case, after its timed samples: a few more steps of every
// timed variant under LibTorch's profiler (kernels per step, device-busy time), the graphs it
// captured (kernel nodes, private pools), and the check that a variant runs the kernels its
// workload says it must (GELU's jit and native variants: one kernel per step). A variant that runs
// another number fails: a graph captured before TorchScript fused the function is not the
// optimised one, whatever it measures. Without a profiler the profile is absent, never zero.
// See docs/measuring.md (kernels and the floor).
#pragma once

#include "graphbench/engine/runner/case_timing.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// Steps profiled per variant.
inline constexpr int kProfiledSteps = 10;

// CUPTI can drop activity records (seen with CUDA 13.0: the kernels of some graph replays, or
// every kernel of an eager step): an incomplete profile is taken again, up to this many times.
inline constexpr int kProfileAttempts = 3;

// Fills `profile` and `graphs` of every timed record, adds warnings, and fails the records whose
// kernels per step differ from instance.expected_kernels_per_step. A profile that cannot be whole
// (no GPU work recorded, or fewer kernels per step than the graph holds: CUPTI drops records at
// times) is taken again; after a few tries the record has no profile and a warning says why.
void profile_variants(TimedCase& timed, const CaseInstance& instance, const CaseContext& context);

// The kernel check on its own, on what is known of a variant (either may be absent): the graph's
// kernel nodes count first, else the profiler's kernels per step. "" when it passes or cannot
// tell, else why the variant fails.
std::string kernel_check_failure(std::optional<int> expected, const std::vector<GraphFacts>& graphs,
                                 const std::optional<KernelProfile>& profile);

// Takes a profile with `take` until it is whole: some device work, a whole number of kernels per
// step, and no fewer kernels per step than the graph (if one) holds. After kProfileAttempts that
// fall short: nullopt, and a warning that says why. nullopt at once when `take` has no profiler.
std::optional<KernelProfile> profile_until_whole(const std::function<std::optional<KernelProfile>()>& take,
                                                 const std::vector<GraphFacts>& graphs,
                                                 std::vector<std::string>& warnings);

// A warning when the profiler saw fewer kernels per step than the graph holds (it missed kernels
// inside the graph), else "".
std::string profiler_visibility_warning(const std::vector<GraphFacts>& graphs, const std::optional<KernelProfile>& profile);

}  // namespace graphbench
