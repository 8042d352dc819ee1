// Intervals that respect how samples were taken, by rounds and by processes. Sample k of each variant comes from round k, and
// consecutive rounds are correlated (drift, a busy host), so independent resampling (bootstrap.h)
// gives intervals far too narrow. Here whole rounds are resampled in blocks (the circular block
// bootstrap of Politis and Romano, 1992), every sample set of one run with the same rounds, so a
// ratio of two variants stays paired and their shared drift cancels. Deterministic for a seed.
// See docs/measuring.md (intervals).
#pragma once

#include "graphbench/core/stats/bootstrap.h"
#include "graphbench/core/stats/statistics.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphbench::stats {

// The block length for a series by the rule of Politis and White (2004), corrected by Patton,
// Politis and White (2009): 1 without significant autocorrelation (or below 3 values), at most
// min(3 sqrt(n), n / 3).
std::size_t block_length(const std::vector<double>& series);

// The sample sets of one run taken in the same rounds: one sequence of resampled rounds serves
// them all (a set of another length gets its own).
struct RunSamples {
  std::vector<const std::vector<double>*> numerators;
  std::vector<const std::vector<double>*> denominators;
};

// The product over runs of prod(median(numerators)) / prod(median(denominators)), with a 95%
// percentile interval from the block bootstrap of each run (runs independent; the run's largest
// block_length), widened to contain the estimate. std::invalid_argument without a run, for a run
// without sets, an empty or null set, or resamples < 1.
RatioEstimate ratio_by_rounds(const std::vector<RunSamples>& runs, int resamples = 2000,
                              std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// The 95% interval of the median of one series by the same block bootstrap. Throws
// std::invalid_argument on an empty series or resamples < 1.
Interval median_interval_by_rounds(const std::vector<double>& samples, int resamples = 2000,
                                   std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// Relative noise of the median: half the width of median_interval_by_rounds over the median.
// Infinity with fewer than 6 samples or a median of 0 with a spread.
double median_block_noise(const std::vector<double>& samples, int resamples = 2000,
                          std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// The interval of a figure measured in several processes (Kalibera and Jones, ISMM 2013): processes
// resampled with replacement, then each drawn process's rounds in circular blocks
// (above), eager and the variant paired by round; the figure is the median of the pooled
// numerators (over the pooled denominators' for a ratio). A handful of processes gives too narrow a
// percentile interval, so its log half-widths are expanded by sqrt(n / (n - 1)) t(0.975, n - 1) /
// z(0.975) (Hesterberg's expanded percentile interval, 2015). See docs/measuring.md (repetitions).
// One process's samples: `numerator` (a variant's, or the series whose median is wanted) and
// `denominator` (eager's of the same rounds; null for a median alone).
struct ProcessSamples {
  const std::vector<double>* numerator = nullptr;
  const std::vector<double>* denominator = nullptr;
};

// The 95% interval of median(pooled numerators) [/ median(pooled denominators)], widened to
// contain `point`. Throws std::invalid_argument with fewer than two processes, an empty or null
// series, or resamples < 1.
Interval hierarchical_interval(const std::vector<ProcessSamples>& processes, double point, int resamples = 2000,
                               std::uint64_t seed = 0x9e3779b97f4a7c15ull);

// sqrt(n / (n - 1)) t(0.975, n - 1) / z(0.975): the expansion for n processes (n >= 2).
double small_sample_expansion(int processes);

// The interval of a quantity measured once per repetition (`--repetitions N`), on a log scale: the
// smallest that holds the point estimate, the t-interval across the repetitions
// (exp(mean(log v) +- t(0.975, N - 1) sd(log v) / sqrt(N))) and their own intervals pooled
// (exp(mean(log low_i)), exp(mean(log high_i))). See docs/measuring.md (repetitions).
// `values`: one per repetition, positive; `within`: each repetition's own interval (positive
// bounds), in the same order; `point`: the merged estimate, positive. Throws std::invalid_argument
// when `values` is empty, the sizes differ, or a number is not positive and finite.
Interval across_runs_interval(const std::vector<double>& values, const std::vector<Interval>& within, double point);

// Kalibera and Jones, "Rigorous Benchmarking in Reasonable Time" (ISMM 2013), on log values: from n
// processes of r rounds, T1^2 = S1^2 (the mean variance of the rounds within a process) and T2^2 =
// S2^2 - S1^2 / r (of the processes' means, 0 if negative), and the rounds per process that buy the
// most precision for the time, r1 = sqrt((c2 / c1) (T1^2 / T2^2)). Rounds are taken as independent.
// See docs/measuring.md (repetitions).
struct VarianceComponents {
  double round_sd = 0.0;    // T1, of log(value)
  double process_sd = 0.0;  // T2, of log(value)
  double rounds = 0.0;      // r: the mean rounds per process
  int processes = 0;
};

// `processes`: one series of positive values per process, each with at least two; throws
// std::invalid_argument with fewer than two processes or a value that is not positive.
VarianceComponents variance_components(const std::vector<std::vector<double>>& processes);

// r1 for a process cost `c2` and a round cost `c1` (same unit, positive); infinity where T2 is 0.
double optimal_rounds(const VarianceComponents& components, double c2, double c1);

}  // namespace graphbench::stats
