// The circular block bootstrap over rounds (see block_bootstrap.h).
#include "graphbench/core/stats/block_bootstrap.h"

#include "graphbench/core/stats/random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace graphbench::stats {
namespace {

// Autocovariances R(0..max_lag) with divisor n (the biased estimator the rule is stated with).
std::vector<double> autocovariances(const std::vector<double>& x, std::size_t max_lag) {
  const std::size_t n = x.size();
  double mean = 0.0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(n);
  std::vector<double> centred(n);
  for (std::size_t i = 0; i < n; ++i) centred[i] = x[i] - mean;
  std::vector<double> r(max_lag + 1, 0.0);
  for (std::size_t k = 0; k <= max_lag && k < n; ++k) {
    double sum = 0.0;
    for (std::size_t i = 0; i + k < n; ++i) sum += centred[i] * centred[i + k];
    r[k] = sum / static_cast<double>(n);
  }
  return r;
}

// The flat-top (trapezoidal) kernel of Politis and White.
double flat_top(double t) {
  t = std::abs(t);
  if (t <= 0.5) return 1.0;
  return t <= 1.0 ? 2.0 * (1.0 - t) : 0.0;
}

// Indices of n rounds drawn as blocks of `block` consecutive rounds from random starts, wrapping
// around the end (circular), so every round is equally likely to be drawn.
void draw_rounds(std::size_t n, std::size_t block, SplitMix64& rng, std::vector<std::size_t>& out) {
  out.clear();
  while (out.size() < n) {
    const std::size_t start = rng.below(n);
    for (std::size_t j = 0; j < block && out.size() < n; ++j) out.push_back((start + j) % n);
  }
}

double median_at(const std::vector<double>& set, const std::vector<std::size_t>& rounds, std::vector<double>& scratch) {
  scratch.resize(rounds.size());
  for (std::size_t i = 0; i < rounds.size(); ++i) scratch[i] = set[rounds[i]];
  return median_in_place(scratch);
}

double median_copy(const std::vector<double>& set, std::vector<double>& scratch) {
  scratch = set;
  return median_in_place(scratch);
}

void check_run(const RunSamples& run) {
  if (run.numerators.empty() && run.denominators.empty()) throw std::invalid_argument("a run with no sample set");
  for (const auto* sets : {&run.numerators, &run.denominators}) {
    for (const auto* set : *sets) {
      if (set == nullptr || set->empty()) throw std::invalid_argument("an empty sample set");
    }
  }
}

// One run's share of the ratio, with its own rounds: the sets of the run's first length share
// `rounds`; a set of another length draws its own.
struct RunPlan {
  const RunSamples* run = nullptr;
  std::size_t rounds = 0;  // the length of the run's first set
  std::size_t block = 1;
};

double resampled_share(const RunPlan& plan, SplitMix64& rng, std::vector<std::size_t>& rounds,
                       std::vector<std::size_t>& own, std::vector<double>& scratch) {
  draw_rounds(plan.rounds, plan.block, rng, rounds);
  double share = 1.0;
  for (int side = 0; side < 2; ++side) {
    for (const auto* set : side == 0 ? plan.run->numerators : plan.run->denominators) {
      const std::vector<std::size_t>* indices = &rounds;
      if (set->size() != plan.rounds) {
        draw_rounds(set->size(), std::max<std::size_t>(1, std::min(plan.block, set->size())), rng, own);
        indices = &own;
      }
      const double m = median_at(*set, *indices, scratch);
      share = side == 0 ? share * m : share / m;
    }
  }
  return share;
}

void check_resamples(int resamples) {
  if (resamples < 1) throw std::invalid_argument("resamples must be >= 1, got " + std::to_string(resamples));
}

}  // namespace

std::size_t block_length(const std::vector<double>& series) {
  const std::size_t n = series.size();
  if (n < 3) return 1;
  const double nd = static_cast<double>(n);
  // K_N consecutive insignificant autocorrelations end the search for the last significant lag.
  const std::size_t kn = std::max<std::size_t>(5, static_cast<std::size_t>(std::log10(nd)));
  const std::size_t m_max = static_cast<std::size_t>(std::ceil(std::sqrt(nd))) + kn;
  const double b_max = std::ceil(std::min(3.0 * std::sqrt(nd), nd / 3.0));
  const std::vector<double> r = autocovariances(series, std::min(m_max + kn, n - 1));
  if (!(r[0] > 0.0)) return 1;  // a constant series: nothing to keep together
  const double significant = 2.0 * std::sqrt(std::log10(nd) / nd);
  const std::size_t last_lag = r.size() - 1;
  // m_hat: the lag before the first run of kn insignificant autocorrelations; without such a
  // run, the last significant lag up to m_max.
  std::size_t m_hat = 0;
  std::size_t quiet = 0;
  bool found = false;
  for (std::size_t k = 1; k <= last_lag; ++k) {
    quiet = std::abs(r[k] / r[0]) < significant ? quiet + 1 : 0;
    if (quiet == kn) {
      m_hat = k - kn;
      found = true;
      break;
    }
  }
  if (!found) {
    for (std::size_t k = 1; k <= std::min(m_max, last_lag); ++k) {
      if (std::abs(r[k] / r[0]) >= significant) m_hat = k;
    }
  }
  const std::size_t big_m = std::min({2 * m_hat, m_max, last_lag});
  if (big_m == 0) return 1;
  double g = 0.0;   // sum over |k| <= M of lambda(k / M) |k| R(k)
  double g0 = r[0];  // sum over |k| <= M of lambda(k / M) R(k): the spectral density at 0, up to 2 pi
  for (std::size_t k = 1; k <= big_m; ++k) {
    const double w = flat_top(static_cast<double>(k) / static_cast<double>(big_m));
    g += 2.0 * w * static_cast<double>(k) * r[k];
    g0 += 2.0 * w * r[k];
  }
  const double d = 4.0 / 3.0 * g0 * g0;  // D of the circular block bootstrap
  if (!(d > 0.0)) return 1;
  const double b = std::cbrt(2.0 * g * g / d) * std::cbrt(nd);
  return static_cast<std::size_t>(std::clamp(std::round(b), 1.0, std::max(1.0, b_max)));
}

RatioEstimate ratio_by_rounds(const std::vector<RunSamples>& runs, int resamples, std::uint64_t seed) {
  if (runs.empty()) throw std::invalid_argument("no run of samples");
  check_resamples(resamples);
  std::vector<RunPlan> plans;
  std::vector<double> scratch;
  RatioEstimate estimate;
  estimate.ratio = 1.0;
  for (const RunSamples& run : runs) {
    check_run(run);
    RunPlan plan;
    plan.run = &run;
    plan.rounds = (run.numerators.empty() ? run.denominators : run.numerators).front()->size();
    for (const auto* sets : {&run.numerators, &run.denominators}) {
      for (const auto* set : *sets) {
        if (set->size() == plan.rounds) plan.block = std::max(plan.block, block_length(*set));
      }
    }
    for (const auto* set : run.numerators) estimate.ratio *= median_copy(*set, scratch);
    for (const auto* set : run.denominators) estimate.ratio /= median_copy(*set, scratch);
    plans.push_back(plan);
  }
  SplitMix64 rng(seed);
  std::vector<std::size_t> rounds, own;
  std::vector<double> ratios(static_cast<std::size_t>(resamples));
  for (double& ratio : ratios) {
    ratio = 1.0;
    for (const RunPlan& plan : plans) ratio *= resampled_share(plan, rng, rounds, own, scratch);
  }
  estimate.ci95.low = std::min(percentile(ratios, 2.5), estimate.ratio);
  estimate.ci95.high = std::max(percentile(ratios, 97.5), estimate.ratio);
  return estimate;
}

Interval median_interval_by_rounds(const std::vector<double>& samples, int resamples, std::uint64_t seed) {
  if (samples.empty()) throw std::invalid_argument("median_interval_by_rounds: needs at least one sample, got none");
  return ratio_by_rounds({RunSamples{{&samples}, {}}}, resamples, seed).ci95;
}

double median_block_noise(const std::vector<double>& samples, int resamples, std::uint64_t seed) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (samples.size() < 6) return kInfinity;
  std::vector<double> scratch = samples;
  const double median = median_in_place(scratch);
  const Interval ci = median_interval_by_rounds(samples, resamples, seed);
  const double half_width = (ci.high - ci.low) / 2.0;
  if (half_width == 0.0) return 0.0;
  if (median == 0.0) return kInfinity;
  return half_width / std::abs(median);
}

}  // namespace graphbench::stats
