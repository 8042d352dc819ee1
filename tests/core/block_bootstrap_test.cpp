// Tests of the block bootstrap over rounds (core/stats/block_bootstrap.h) on generated series: an
// autocorrelated series gets long blocks and wider intervals than the independent bootstrap's,
// two variants sampled in the same rounds stay paired, and on simulated A/A pairs of drifting
// runs the block intervals overlap where the independent ones do not.
#include "support/catch.h"

#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/bootstrap.h"
#include "graphbench/core/stats/random.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using graphbench::stats::block_length;
using graphbench::stats::median_block_noise;
using graphbench::stats::median_interval_by_rounds;
using graphbench::stats::ratio_by_rounds;
using graphbench::stats::RunSamples;

// Standard normal draws from splitmix64 (Box-Muller): the same on every platform.
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : rng_(seed) {}
  double next() {
    const double u1 = (static_cast<double>(rng_.next() >> 11) + 0.5) / 9007199254740992.0;
    const double u2 = static_cast<double>(rng_.next() >> 11) / 9007199254740992.0;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  graphbench::stats::SplitMix64 rng_;
};

// 100 * (1 + sd * AR(1) with coefficient phi), n values.
std::vector<double> ar1(std::size_t n, double phi, double sd, std::uint64_t seed) {
  Normal normal(seed);
  std::vector<double> out;
  double x = normal.next();
  for (std::size_t i = 0; i < n; ++i) {
    x = phi * x + std::sqrt(1.0 - phi * phi) * normal.next();
    out.push_back(100.0 * (1.0 + sd * x));
  }
  return out;
}

bool overlap(const graphbench::stats::Interval& a, const graphbench::stats::Interval& b) {
  return a.low <= b.high && b.low <= a.high;
}

}  // namespace

TEST_CASE("block length: 1 without autocorrelation, long for a drifting series", "[stats][blocks]") {
  CHECK(block_length({}) == 1);
  CHECK(block_length({1.0, 2.0}) == 1);
  CHECK(block_length(std::vector<double>(100, 7.0)) == 1);  // constant: nothing to keep together
  const auto independent = ar1(1000, 0.0, 0.05, 1);
  CHECK(block_length(independent) <= 2);
  const auto drifting = ar1(1000, 0.9, 0.05, 2);
  CHECK(block_length(drifting) >= 10);
  // Never more than min(3 sqrt(n), n / 3).
  const auto walk = ar1(1000, 0.999, 0.05, 3);
  CHECK(block_length(walk) <= 95);
}

TEST_CASE("block bootstrap: wider than the independent bootstrap on autocorrelated samples", "[stats][blocks]") {
  const auto drifting = ar1(1000, 0.9, 0.05, 4);
  const std::vector<double> one(1000, 1.0);
  const auto iid = graphbench::stats::ratio_of_medians(drifting, one, 1000, 5);
  const auto blocks = ratio_by_rounds({RunSamples{{&drifting}, {&one}}}, 1000, 5);
  CHECK(blocks.ratio == iid.ratio);
  CHECK(blocks.ci95.low <= blocks.ratio);
  CHECK(blocks.ci95.high >= blocks.ratio);
  // The effective sample size of AR(1) with phi 0.9 is about n / 19: intervals ~3x wider.
  CHECK(blocks.ci95.high - blocks.ci95.low > 2.0 * (iid.ci95.high - iid.ci95.low));
}

TEST_CASE("block bootstrap: variants of one run stay paired by round, so shared drift cancels", "[stats][blocks]") {
  // A graph three times faster than eager, both riding the same slow drift of +-10%.
  const auto drift = ar1(600, 0.95, 0.10, 6);
  const auto jitter = ar1(600, 0.0, 0.002, 7);
  std::vector<double> eager, graph;
  for (std::size_t i = 0; i < drift.size(); ++i) {
    eager.push_back(drift[i]);
    graph.push_back(drift[i] / 3.0 * jitter[i] / 100.0);
  }
  const auto paired = ratio_by_rounds({RunSamples{{&eager}, {&graph}}}, 1000, 8);
  CHECK(paired.ci95.low <= 3.0 * 1.01);
  CHECK(paired.ci95.high >= 3.0 * 0.99);
  // The same sets as if from two separate runs: the drift no longer cancels.
  const auto unpaired = ratio_by_rounds({RunSamples{{&eager}, {}}, RunSamples{{}, {&graph}}}, 1000, 8);
  CHECK(unpaired.ratio == paired.ratio);
  CHECK(unpaired.ci95.high - unpaired.ci95.low > 5.0 * (paired.ci95.high - paired.ci95.low));
}

TEST_CASE("block bootstrap: simulated A/A pairs of drifting runs overlap", "[stats][blocks]") {
  // 40 pairs of runs of the same code, each 400 rounds of an AR(1) with phi 0.8: the 95% intervals
  // of the two medians of a pair should overlap nearly always (two independent 95% intervals of
  // one quantity overlap with probability ~99.5%); the independent bootstrap's do not.
  int iid_overlaps = 0;
  int block_overlaps = 0;
  const int pairs = 40;
  const std::vector<double> one(400, 1.0);
  for (int p = 0; p < pairs; ++p) {
    const auto a = ar1(400, 0.8, 0.05, 100 + 2 * p);
    const auto b = ar1(400, 0.8, 0.05, 101 + 2 * p);
    block_overlaps += overlap(median_interval_by_rounds(a, 400, 9), median_interval_by_rounds(b, 400, 9)) ? 1 : 0;
    iid_overlaps += overlap(graphbench::stats::ratio_of_medians(a, one, 400, 9).ci95,
                            graphbench::stats::ratio_of_medians(b, one, 400, 9).ci95)
                        ? 1
                        : 0;
  }
  CHECK(block_overlaps >= 38);  // at least 95%
  CHECK(iid_overlaps < block_overlaps);
}

TEST_CASE("block bootstrap: deterministic, noise of a median, bad input", "[stats][blocks]") {
  const auto x = ar1(200, 0.5, 0.05, 10);
  const auto a = median_interval_by_rounds(x, 500, 11);
  const auto b = median_interval_by_rounds(x, 500, 11);
  CHECK(a.low == b.low);
  CHECK(a.high == b.high);
  const double noise = median_block_noise(x, 500, 11);
  std::vector<double> sorted = x;
  const double median = graphbench::stats::percentile(sorted, 50.0);
  CHECK(noise == Approx((a.high - a.low) / 2.0 / median));

  CHECK(median_block_noise({1, 2, 3, 4, 5}) == std::numeric_limits<double>::infinity());
  CHECK(median_block_noise(std::vector<double>(50, 3.0)) == 0.0);
  const std::vector<double> empty;
  CHECK_THROWS_AS(ratio_by_rounds({}), std::invalid_argument);
  CHECK_THROWS_AS(ratio_by_rounds({RunSamples{}}), std::invalid_argument);
  CHECK_THROWS_AS(ratio_by_rounds({RunSamples{{&x}, {&empty}}}), std::invalid_argument);
  CHECK_THROWS_AS(ratio_by_rounds({RunSamples{{&x}, {}}}, 0), std::invalid_argument);
  CHECK_THROWS_AS(median_interval_by_rounds(empty), std::invalid_argument);
}
