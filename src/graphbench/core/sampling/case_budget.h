// What a case needs at the least under its time limit, from the time of one eager step, and the
// decision before it starts: run it (its phases cut to fit) or skip it, naming the --max-time that
// gives it what it needs (docs/measuring.md, "The time limit of a case").
#pragma once

#include "graphbench/core/suite/suite_spec.h"

#include <cstdint>
#include <string>

namespace graphbench {

// The share of a case's limit kept at the least for what comes after sampling.
inline constexpr double kAfterSamplingShare = 0.1;

// What a case spends after sampling, planned before it samples so that sampling leaves room for it:
// on a GPU the kernel profile (`profiled_steps` of each variant, plus the profiler's cost per
// variant) and the steps back to back (kBackToBackShare of the limit), then the summary's
// bootstraps (a cost per sample). The costs are the host's, learned case by case; the defaults are
// the highest measured on an H200's host.
inline constexpr double kBackToBackShare = 0.05;
struct AfterSamplingRates {
  double profile_s_per_variant = 0.03;
  double summary_s_per_sample = 170e-6;
};
struct AfterSamplingPlan {
  double profile_s = 0.0;
  double back_to_back_s = 0.0;
  double summary_s = 0.0;
  double reserve_s = 0.0;  // what sampling leaves: their sum, at least kAfterSamplingShare of the limit
};
// `left_s`: what is left of `limit_s` when sampling starts; `profiled_steps` 0: no kernel profile.
AfterSamplingPlan plan_after_sampling(double limit_s, double left_s, double step_s, int variants, int profiled_steps,
                                      bool back_to_back, const SamplingSpec& sampling,
                                      const AfterSamplingRates& rates);

// Rounds a case samples at the least under a limit: fewer give no median worth the name.
inline constexpr int kMinimumRounds = 3;

// The least a case runs under its limit: the probe (one eager step), one validation run of every
// variant, then minimum_sampling_seconds.
double minimum_case_seconds(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// Room the offered --max-time leaves over the need: a step moves by as much between runs on a busy
// machine (gelu-large on the 2-core CPU: 103 to 154 ms).
inline constexpr double kOfferedRoom = 1.5;

// The --max-time to offer for a case that needs `seconds`: rounded up (whole seconds under a
// minute, then tens of seconds).
double offered_max_time(double seconds);

// Why a case whose minimum does not fit its limit (less kAfterSamplingShare) is skipped, or "" when
// it fits: "one eager step took 9.5 s, so this case needs about 3 min 01 s at the least (...), more
// than its time limit of 3.0 s allows: --max-time 310 gives it that time".
std::string too_long_reason(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// On the CPU a case is judged before its probe too: its step's flops and bytes at kRooflineRoom
// times what this CPU does at most (a matrix product, a copy) give a lower bound of its step; where
// even that leaves its minimum outside the limit, it is skipped without running a step. The room is
// wide because other kernels beat the product measured (MNIST's convolutions: 21 against 5.6 GFLOP/s).
inline constexpr double kRooflineRoom = 8.0;
double roofline_step_seconds(double flops, double bytes, double flops_per_s, double bytes_per_s);

// Why a case is skipped by its roofline, or "" where its lower bound fits (then the probe decides):
// "skipped before it started: its step does 40 GFLOP, at least 926 ms on this device (...): --max-time
// 240 lets its probe time one step and tell what it needs". `ranks` > 0: a data-parallel case of that
// many ranks; 0: one process.
std::string roofline_too_long_reason(double flops, double bytes, double flops_per_s, double bytes_per_s, int variants,
                                     int validation_steps, int ranks, const SamplingSpec& sampling);

// What a case that fits will take, from its probe: at least its minimum, at most its limit.
struct CaseTimeRange {
  double least_s = 0.0;
  double most_s = 0.0;
};
CaseTimeRange expected_case_seconds(double eager_step_s, int variants, int validation_steps,
                                    const SamplingSpec& sampling);

// "one eager step took 1.3 ms on this device, so this case takes about 1.6 s to 3.0 s (its time
// limit: 3.0 s)", for the log before a case that fits runs.
std::string expected_time_note(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// What validation may take of a case's limit: kValidationShare of it, and no more than leaves the
// rest of the case's minimum (`rest_min_s`) inside (1 - kAfterSamplingShare) of it after `spent_s`.
double validation_budget_s(double limit_s, double spent_s, double rest_min_s);

// The least each sampling phase of a case runs: a warm-up step, a calibration block and
// kMinimumRounds samples of every variant (fewer samples where min_samples is lower; no warm-up step
// where warmup_steps is 0). A sample lasts one step or min_sample_time_ms, whichever is longer.
double minimum_sampling_seconds(double step_s, int variants, const SamplingSpec& sampling);

// A data-parallel case (`--nproc N`) under a limit, at the least: the probe, validation, one step of
// one process on the global batch, its timed phases (with all-reduce, without, rank 0 alone with
// more than one rank; minimum_sampling_seconds each), the all-reduce alone, and the set-up of the
// instances made after the case's own (`setup_s` each).
struct DataParallelMinimum {
  double probe_s = 0.0;
  double validation_s = 0.0;
  double one_process_s = 0.0;  // one step of one process on the global batch
  double phase_s = 0.0;        // each timed phase of the variants
  int phases = 0;
  double all_reduce_s = 0.0;
  double setup_s = 0.0;  // one instance's set-up
  int instances = 0;     // instances made after the case's own
  double after_validation_s() const { return one_process_s + phases * phase_s + all_reduce_s + instances * setup_s; }
  double total_s() const { return probe_s + validation_s + after_validation_s(); }
};
DataParallelMinimum data_parallel_minimum(double eager_step_s, int variants, int validation_steps, int ranks,
                                          const SamplingSpec& sampling, double setup_s = 0.0);

// As too_long_reason, for a data-parallel case of `ranks` ranks (`eager_step_s`: the slowest
// rank's; `setup_s`: its instance's set-up, the slowest rank's).
std::string data_parallel_too_long_reason(double eager_step_s, int variants, int validation_steps, int ranks,
                                          const SamplingSpec& sampling, double setup_s = 0.0);

// After validation the timed phases share what is left of the limit: each its minimum first, then
// the rest in proportion 2 (with all-reduce), 1 (without), 1 (rank 0 alone), 0.5 (all-reduce alone).
struct DataParallelPhaseShares {
  double timed = 0.0;
  double no_all_reduce = 0.0;
  double all_reduce_alone = 0.0;
  double one_rank = 0.0;
};
DataParallelPhaseShares data_parallel_phase_shares(double left_s, const DataParallelMinimum& minimum);

// A phase's sampling seconds when it starts: its planned share scaled by what is left now over the
// shares planned for it and the phases after it (one overrunning is paid for by those after it).
double rolling_phase_seconds(double planned_s, double planned_left_s, double left_s);

// A training case under a limit: each variant trains as many whole epochs as fit its share of the
// limit, counted from its first training step. The probe times kTrainingProbeSteps steps after the
// first (which pays one-time costs).
inline constexpr int kTrainingProbeSteps = 10;

// One test pass, from a training step: a test image costs about kTestImageShare of a training one
// (MNIST on the 2-core CPU: 91 against 134 us).
inline constexpr double kTestImageShare = 0.75;
double test_pass_seconds(double train_step_s, std::int64_t batch, std::int64_t test_images);

struct TrainingPlan {
  int epochs = 0;            // epochs to run (0: the case is skipped)
  int epochs_asked = 0;
  double epoch_s = 0.0;      // one epoch, estimated: its steps and its test pass
  std::string skip_reason;   // when epochs == 0: what it needs and the --max-time that gives it
  std::string note;          // otherwise, for the log: what it will take, and the cut if any
};

// Whole epochs within (1 - kAfterSamplingShare) of `limit_s` (a variant's share of the case's
// limit); none fits: skipped, offering the --max-time for one epoch and for all (`variants` share it).
TrainingPlan plan_training(double step_s, std::int64_t steps_per_epoch, double test_s, int epochs, double limit_s,
                           int variants);

// After an epoch: whether another of `epoch_s` (the longest so far) ends inside the limit.
bool another_epoch_fits(double elapsed_s, double epoch_s, double limit_s);

// The record's warning when a run was cut: "trained 3 of 10 epochs: a 4th would have ended past
// the time limit of 30 s (--max-time 160 gives it all 10)".
std::string epochs_cut_warning(int done, int asked, double epoch_s, double limit_s, int variants);

}  // namespace graphbench
