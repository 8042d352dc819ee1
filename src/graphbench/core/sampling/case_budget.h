// What a case needs at the least under its time limit, from the time of one eager step, and the
// decision taken before the case starts: run it (its phases are then cut to fit the limit) or skip
// it, saying how long it would need and the --max-time that gives it that (docs/measuring.md,
// "The time limit of a case"). Torch-free: tested on given step times.
#pragma once

#include "graphbench/core/suite/suite_spec.h"

#include <cstdint>
#include <string>

namespace graphbench {

// The share of a case's limit kept for what comes after sampling (the summary's bootstraps; on a
// GPU the kernel profile and the back-to-back steps): sampling stops by the rest.
inline constexpr double kAfterSamplingShare = 0.1;

// What a case spends after sampling under a limit for the whole case, planned before it samples so
// that sampling leaves room for it (kAfterSamplingShare of the limit at the least): on a GPU the
// kernel profile (`profiled_steps` of each variant and the profiler's own cost per variant) and the
// steps back to back (kBackToBackShare of the limit), then the summary's bootstraps (their cost per
// sample of a variant times the samples the sampling time can take). The costs per variant and per
// sample are the host's, learned from the cases before (AfterSamplingRates; the defaults are the
// highest measured on one H200's host before the summary ran its bootstraps side by side).
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

// The least a case runs under its limit: the eager step that measures it (the probe), one
// validation run of every variant (`validation_steps` steps each), one warm-up step, one
// calibration block and kMinimumRounds samples of every variant (fewer where min_samples is lower;
// no warm-up step where warmup_steps is 0). A sample lasts one step or min_sample_time_ms,
// whichever is longer.
double minimum_case_seconds(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// Room the offered --max-time leaves over the need: a step's time moves by as much between runs on
// a busy machine (gelu-large on the 2-core CPU: 103 ms to 154 ms in runs minutes apart).
inline constexpr double kOfferedRoom = 1.5;

// The --max-time to offer for a case that needs `seconds`: that time rounded up (whole seconds
// under a minute, then tens of seconds), so that the offer is never below the need.
double offered_max_time(double seconds);

// Why a case whose minimum does not fit its limit `sampling.max_time_s` (less kAfterSamplingShare)
// is skipped, or "" when it fits: "one eager step took 9.5 s, so this case needs about 3 min 01 s
// at the least (...), more than its time limit of 3.0 s allows: --max-time 310 gives it that time" (kOfferedRoom
// over the limit it needs).
std::string too_long_reason(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// On the CPU a case is judged before its probe too, from what its step must do (its roofline:
// StepCost's flops and bytes) at what this CPU does at most (a matrix product's flops per second and
// a copy's bytes per second, measured once per process), allowing its step kRooflineRoom times that
// speed: where even that lower bound of its step leaves its minimum outside the limit, the case is
// skipped without running a step (linear-dropout-large on the 2-core CPU: 40 GFLOP a step, at least
// 0.9 s at 8 x 5.6 GFLOP/s; a step took 9 s). The room is wide because other kernels beat the
// product measured: the MNIST step's convolutions ran at 21 GFLOP/s there. A GPU's small products
// are far below its peak: no such judgement on a GPU.
inline constexpr double kRooflineRoom = 8.0;
double roofline_step_seconds(double flops, double bytes, double flops_per_s, double bytes_per_s);

// Why a case is skipped by its roofline, or "" where its lower bound fits (then the probe decides):
// "skipped before it started: its step does 40 GFLOP, at least 926 ms on this device (at 8 times
// 5.4 GFLOP/s, the most it did in a matrix product), so this case needs at least 18 s (...), more
// than its time limit of 3.0 s allows: --max-time 240 lets its probe time one step and tell what it
// needs" (the need at the measured peak itself, with kOfferedRoom). `ranks` > 0: a data-parallel
// case of that many ranks (data_parallel_minimum); 0: one process (minimum_case_seconds). Where
// even steps of no time would not fit (samples of min_sample_time_ms), "": the probe tells.
std::string roofline_too_long_reason(double flops, double bytes, double flops_per_s, double bytes_per_s, int variants,
                                     int validation_steps, int ranks, const SamplingSpec& sampling);

// What a case that fits will take, from its probe: at least its validation, warm-up and minimum
// samples (core/report/progress.h, estimate_case), at most its limit; the probe's step counted.
struct CaseTimeRange {
  double least_s = 0.0;
  double most_s = 0.0;
};
CaseTimeRange expected_case_seconds(double eager_step_s, int variants, int validation_steps,
                                    const SamplingSpec& sampling);

// "one eager step took 1.3 ms on this device, so this case takes about 1.6 s to 3.0 s (its time
// limit: 3.0 s)", for the log before a case that fits runs.
std::string expected_time_note(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// What validation may take of a case's limit: kValidationShare of it (core/sampling/sampler.h), and no
// more than leaves the rest of the case's minimum (`rest_min_s`: what comes after validation at the
// least) inside (1 - kAfterSamplingShare) of the limit after `spent_s` (the probe): where eager's
// spread runs would eat into the samples' minimum, they are left out (engine/runner/validation.h).
double validation_budget_s(double limit_s, double spent_s, double rest_min_s);

// The least each sampling phase of a case runs: a warm-up step, a calibration block and
// kMinimumRounds samples of every variant (fewer samples where min_samples is lower; no warm-up step
// where warmup_steps is 0). A sample lasts one step or min_sample_time_ms, whichever is longer.
double minimum_sampling_seconds(double step_s, int variants, const SamplingSpec& sampling);

// A data-parallel case (`--nproc N`) under a limit, at the least: the probe, eager's validation run
// and one of every other variant, one step of one process on the global batch (`ranks` times a
// rank's step), its timed phases (minimum_sampling_seconds each): with all-reduce, without, rank 0
// alone (only with more than one rank), and the all-reduce alone (its samples far shorter than a
// step); and the set-up of the instances made after the case's own (the one-process reference, the
// phase without all-reduce, rank 0 alone), each `setup_s`, as long as the case's own took.
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

// After validation and the replica check, the timed phases share what is left of the limit (less
// kAfterSamplingShare, less the set-up of the instances still to make): each its minimum first
// (`minimum`), then what is over in proportion to these weights: 2 the variants with their
// all-reduce (the result), 1 the same without it, 1 rank 0 alone, 0.5 the all-reduce alone. Short
// of the minimums, each has its part of what is left.
struct DataParallelPhaseShares {
  double timed = 0.0;
  double no_all_reduce = 0.0;
  double all_reduce_alone = 0.0;
  double one_rank = 0.0;
};
DataParallelPhaseShares data_parallel_phase_shares(double left_s, const DataParallelMinimum& minimum);

// The phases run one after the other, each making its runners (and, but for the all-reduce alone,
// an instance) before it samples: what one takes beyond its share is taken from the phases after it.
// Before a phase starts, its seconds of sampling are its planned share `planned_s` scaled by what is
// left now (`left_s`) over the shares planned for it and the phases after it (`planned_left_s`).
double rolling_phase_seconds(double planned_s, double planned_left_s, double left_s);

// A training case (kind "training") under a limit: each variant trains whole epochs, as many as
// fit its share of the case's limit (the limit over the variants that run), counted from its first
// training step (loading the data and setting up are not counted, as making a benchmark case is
// not). The probe is the first steps of the first epoch, timed: kTrainingProbeSteps after the
// first (which pays one-time costs).
inline constexpr int kTrainingProbeSteps = 10;

// One test pass, from a training step: a test image costs about kTestImageShare of a training
// image (forward only, larger batches; the MNIST test pass on the 2-core CPU: 91 us an image
// against 134 us in training).
inline constexpr double kTestImageShare = 0.75;
double test_pass_seconds(double train_step_s, std::int64_t batch, std::int64_t test_images);

struct TrainingPlan {
  int epochs = 0;            // epochs to run (0: the case is skipped)
  int epochs_asked = 0;
  double epoch_s = 0.0;      // one epoch, estimated: its steps and its test pass
  std::string skip_reason;   // when epochs == 0: what it needs and the --max-time that gives it
  std::string note;          // otherwise, for the log: what it will take, and the cut if any
};

// The plan of a training run of `epochs` epochs of `steps_per_epoch` steps of `step_s` and a test
// pass of `test_s`, under `limit_s` (its share of the case's limit): whole epochs within
// (1 - kAfterSamplingShare) of the limit; none fits: skipped, offering the --max-time that gives
// the case one epoch and the one that gives it all (`variants`: how many share the limit).
TrainingPlan plan_training(double step_s, std::int64_t steps_per_epoch, double test_s, int epochs, double limit_s,
                           int variants);

// After an epoch: whether another of `epoch_s` (the longest so far) ends inside the limit.
bool another_epoch_fits(double elapsed_s, double epoch_s, double limit_s);

// The record's warning when a run was cut: "trained 3 of 10 epochs: a 4th would have ended past
// the time limit of 30 s (--max-time 160 gives it all 10)".
std::string epochs_cut_warning(int done, int asked, double epoch_s, double limit_s, int variants);

}  // namespace graphbench
