// Tests of graphbench::stats. Expected values were checked by hand and against numpy's
// percentile (method "linear").
#include "support/catch.h"

#include "graphbench/core/stats/bootstrap.h"
#include "graphbench/core/stats/break_even.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/interval_union.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using graphbench::stats::percentile;
using graphbench::stats::ratio_of_medians;
using graphbench::stats::summarize;

TEST_CASE("percentile interpolates linearly like numpy", "[stats]") {
  const std::vector<double> even = {4.0, 1.0, 3.0, 2.0};  // unsorted on purpose
  CHECK(percentile(even, 0) == 1.0);
  CHECK(percentile(even, 25) == Approx(1.75));  // np.percentile([1,2,3,4], 25)
  CHECK(percentile(even, 50) == Approx(2.5));
  CHECK(percentile(even, 75) == Approx(3.25));
  CHECK(percentile(even, 100) == 4.0);

  const std::vector<double> odd = {15, 20, 35, 40, 50};
  CHECK(percentile(odd, 40) == Approx(29.0));  // rank 1.6: 20 + 0.6 * 15
  CHECK(percentile(odd, 90) == Approx(46.0));  // rank 3.6: 40 + 0.6 * 10
  CHECK(percentile(odd, 50) == 35.0);

  CHECK(percentile({7.5}, 33) == 7.5);
  CHECK_THROWS_AS(percentile({}, 50), std::invalid_argument);
  CHECK_THROWS_AS(percentile({1.0}, 101), std::invalid_argument);
  CHECK_THROWS_AS(percentile({1.0}, -1), std::invalid_argument);
}

TEST_CASE("summarize an even sample", "[stats]") {
  const auto s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  CHECK(s.count == 8);
  CHECK(s.median == Approx(4.5));
  CHECK(s.q1 == Approx(4.0));  // rank 1.75 between 4 and 4
  CHECK(s.q3 == Approx(5.5));  // rank 5.25: 5 + 0.25 * 2
  CHECK(s.iqr == Approx(1.5));
  CHECK(s.min == 2.0);
  CHECK(s.max == 9.0);
  CHECK(s.mean == Approx(5.0));
  CHECK(s.stddev == Approx(std::sqrt(32.0 / 7.0)));  // n - 1 in the denominator
  CHECK(s.cv == Approx(std::sqrt(32.0 / 7.0) / 5.0));
}

TEST_CASE("summarize an odd sample", "[stats]") {
  const auto s = summarize({3, 1, 2});
  CHECK(s.count == 3);
  CHECK(s.median == 2.0);
  CHECK(s.q1 == Approx(1.5));
  CHECK(s.q3 == Approx(2.5));
  CHECK(s.iqr == Approx(1.0));
  CHECK(s.stddev == Approx(1.0));
}

TEST_CASE("summarize a single sample and reject an empty one", "[stats]") {
  const auto s = summarize({7.0});
  CHECK(s.count == 1);
  CHECK(s.median == 7.0);
  CHECK(s.q1 == 7.0);
  CHECK(s.q3 == 7.0);
  CHECK(s.iqr == 0.0);
  CHECK(s.min == 7.0);
  CHECK(s.max == 7.0);
  CHECK(s.mean == 7.0);
  CHECK(s.stddev == 0.0);
  CHECK(s.cv == 0.0);
  CHECK_THROWS_AS(summarize({}), std::invalid_argument);
}

TEST_CASE("ratio of medians with a deterministic bootstrap", "[stats]") {
  const std::vector<double> num = {10, 11, 12, 13, 14, 15, 16};
  const std::vector<double> den = {5, 5.5, 6, 6.5, 7};
  const auto a = ratio_of_medians(num, den);
  CHECK(a.ratio == Approx(13.0 / 6.0));
  // Pinned values (an independent Python re-implementation of the same splitmix64 resampling
  // gives the same numbers): the draws do not depend on the standard library.
  CHECK(a.ci95.low == Approx(22.0 / 13.0));
  CHECK(a.ci95.high == Approx(2.8));

  const auto b = ratio_of_medians(num, den);
  CHECK(a.ci95.low == b.ci95.low);
  CHECK(a.ci95.high == b.ci95.high);
  const auto c = ratio_of_medians(num, den, 2000, 12345);
  CHECK(c.ratio == a.ratio);
  CHECK(c.ci95.low <= c.ratio);
  CHECK(c.ci95.high >= c.ratio);

  // The interval contains the point ratio and has some width for noisy data.
  std::vector<double> slow, fast;
  for (int i = 0; i < 30; ++i) {
    slow.push_back(150.0 + (i * 37 % 11));
    fast.push_back(100.0 + (i * 53 % 13));
  }
  const auto r = ratio_of_medians(slow, fast, 500, 7);
  CHECK(r.ci95.low <= r.ratio);
  CHECK(r.ci95.high >= r.ratio);
  CHECK(r.ci95.low < r.ci95.high);
  CHECK(r.ratio == Approx(155.0 / 105.0));
  CHECK(r.ci95.low == Approx(1.4361466408268733));  // pinned as above
  CHECK(r.ci95.high == Approx(1.5145631067961165));

  const auto exact = ratio_of_medians({2, 2, 2}, {1, 1, 1, 1});
  CHECK(exact.ratio == 2.0);
  CHECK(exact.ci95.low == 2.0);
  CHECK(exact.ci95.high == 2.0);

  CHECK_THROWS_AS(ratio_of_medians({}, den), std::invalid_argument);
  CHECK_THROWS_AS(ratio_of_medians(num, {}), std::invalid_argument);
  CHECK_THROWS_AS(ratio_of_medians(num, den, 0), std::invalid_argument);
}

TEST_CASE("union of intervals: overlapping kernels count once", "[stats][profile]") {
  using graphbench::stats::union_length;
  CHECK(union_length({}) == 0.0);
  CHECK(union_length({{0.0, 10.0}}) == 10.0);
  // Two streams side by side: 10 + 10 summed, 15 busy.
  CHECK(union_length({{5.0, 15.0}, {0.0, 10.0}}) == 15.0);
  CHECK(union_length({{0.0, 10.0}, {2.0, 3.0}, {20.0, 25.0}}) == 15.0);
  CHECK(union_length({{0.0, 10.0}, {10.0, 12.0}}) == 12.0);
  CHECK(union_length({{5.0, 5.0}, {7.0, 6.0}}) == 0.0);
}

namespace {

// `rounds` values around exp(level) alternating by +-spread on the log scale.
std::vector<double> process_around(double level, int rounds, double spread) {
  std::vector<double> out;
  for (int k = 0; k < rounds; ++k) out.push_back(std::exp(level + (k % 2 == 0 ? spread : -spread)));
  return out;
}

}  // namespace

TEST_CASE("variance components: Kalibera and Jones's T1, T2 and rounds per process", "[stats][repetitions]") {
  using namespace graphbench::stats;
  // Four processes at log levels 0, 0.2, -0.2, 0.1, rounds +-0.1 around each.
  const std::vector<std::vector<double>> processes{process_around(0.0, 100, 0.1), process_around(0.2, 100, 0.1),
                                                   process_around(-0.2, 100, 0.1), process_around(0.1, 100, 0.1)};
  const VarianceComponents c = variance_components(processes);
  const double s1 = 0.01 * 100.0 / 99.0;
  const double mean = 0.025;
  double s2 = 0.0;
  for (double m : {0.0, 0.2, -0.2, 0.1}) s2 += (m - mean) * (m - mean) / 3.0;
  CHECK(c.round_sd == Approx(std::sqrt(s1)));
  CHECK(c.process_sd == Approx(std::sqrt(s2 - s1 / 100.0)));
  CHECK(c.processes == 4);
  // r1 = sqrt((c2 / c1) (T1^2 / T2^2)): the H100's gelu-small eager (T1 14.4%, T2 11.4%), a 5 s
  // process and a 1.6 ms round: 71 rounds.
  VarianceComponents h100;
  h100.round_sd = 0.144;
  h100.process_sd = 0.1137;
  CHECK(optimal_rounds(h100, 5.0, 0.0016) == Approx(70.8).epsilon(0.01));
  // Processes that agree: no process level, as many rounds as one likes.
  const VarianceComponents flat = variance_components({process_around(0.0, 50, 0.1), process_around(0.0, 50, 0.1)});
  CHECK(flat.process_sd == 0.0);
  CHECK(std::isinf(optimal_rounds(flat, 5.0, 0.0016)));
  CHECK_THROWS_AS(variance_components({process_around(0.0, 10, 0.1)}), std::invalid_argument);
}

TEST_CASE("hierarchical bootstrap: processes that moved give an interval that spans them", "[stats][repetitions]") {
  using namespace graphbench::stats;
  CHECK(small_sample_expansion(4) == Approx(1.875).epsilon(0.01));
  // gelu-small's eager step in four processes on an H200: 36, 55, 43 and 50 us, each tight.
  const std::vector<std::vector<double>> moved{process_around(std::log(36.0), 200, 0.01),
                                               process_around(std::log(55.0), 200, 0.01),
                                               process_around(std::log(43.0), 200, 0.01),
                                               process_around(std::log(50.0), 200, 0.01)};
  std::vector<ProcessSamples> processes;
  for (const auto& p : moved) processes.push_back({&p, nullptr});
  const Interval i = hierarchical_interval(processes, 46.5);
  INFO(i.low << " " << i.high);
  CHECK(i.low < 38.0);
  CHECK(i.high > 54.0);
  // The same processes all at 45 us: as narrow as their rounds.
  const std::vector<std::vector<double>> steady(4, process_around(std::log(45.0), 200, 0.01));
  std::vector<ProcessSamples> same;
  for (const auto& p : steady) same.push_back({&p, nullptr});
  const Interval narrow = hierarchical_interval(same, 45.0);
  CHECK(narrow.low > 43.5);  // the rounds alone: +-1%, expanded 1.9 times
  CHECK(narrow.high < 46.5);
  // A ratio paired by process and round: eager three times the graph in every process, whatever
  // the process's pace, is 3 within a hair.
  std::vector<std::vector<double>> graphs;
  std::vector<std::vector<double>> eagers;
  for (double level : {36.0, 55.0, 43.0, 50.0}) {
    graphs.push_back(process_around(std::log(level / 3.0), 200, 0.01));
    eagers.push_back(process_around(std::log(level), 200, 0.01));
  }
  std::vector<ProcessSamples> paired;
  for (std::size_t k = 0; k < graphs.size(); ++k) paired.push_back({&eagers[k], &graphs[k]});
  const Interval ratio = hierarchical_interval(paired, 3.0);
  INFO(ratio.low << " " << ratio.high);
  CHECK(ratio.low > 2.7);
  CHECK(ratio.high < 3.3);
  CHECK(ratio.low <= 3.0);
  CHECK(ratio.high >= 3.0);
  CHECK_THROWS_AS(hierarchical_interval({processes[0]}, 36.0), std::invalid_argument);
}

TEST_CASE("break-even over the speedup's interval: the replays at its two ends", "[stats][break-even]") {
  using graphbench::stats::break_even_range;
  // 10 ms of capture; eager 100 us; speedup 2 saves 50 us a replay (200 replays), 1.25 saves 20 (500).
  const auto r = break_even_range(10.0, 0.0, 100.0, 1.25, 2.0);
  REQUIRE(r);
  CHECK(r->fewest == 200);
  REQUIRE(r->most);
  CHECK(*r->most == 500);
  // An interval that reaches 1: the graph may save nothing, no upper end.
  const auto open = break_even_range(10.0, 0.0, 100.0, 0.98, 2.0);
  REQUIRE(open);
  CHECK_FALSE(open->most);
  CHECK_FALSE(break_even_range(10.0, 0.0, 100.0, 0.8, 0.95));
}

TEST_CASE("chi-square: quantiles match the tables, and a spread from three runs is wide", "[stats][calibration]") {
  using namespace graphbench::stats;
  CHECK(chi_square_quantile(0.025, 2.0) == Approx(0.0506356).epsilon(1e-4));  // -2 ln(0.975)
  CHECK(chi_square_quantile(0.975, 2.0) == Approx(7.377759).epsilon(1e-4));
  CHECK(chi_square_quantile(0.975, 7.0) == Approx(16.01276).epsilon(1e-4));
  CHECK(chi_square_quantile(0.025, 7.0) == Approx(1.689869).epsilon(1e-4));
  const Interval three = sd_interval(0.05, 3);
  CHECK(three.low == Approx(0.05 * std::sqrt(2.0 / 7.377759)).epsilon(1e-4));  // 2.6%
  CHECK(three.high == Approx(0.05 * std::sqrt(2.0 / 0.0506356)).epsilon(1e-4));  // 31%
  CHECK_THROWS_AS(sd_interval(0.05, 1), std::invalid_argument);
}
