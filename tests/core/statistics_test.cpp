// Tests of graphbench::stats. Expected values were checked by hand and against numpy's
// percentile (method "linear").
#include "support/catch.h"

#include "graphbench/stats/bootstrap.h"
#include "graphbench/stats/statistics.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using graphbench::stats::median_relative_noise;
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

TEST_CASE("relative noise of the median from order statistics", "[stats]") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(median_relative_noise({}) == inf);
  CHECK(median_relative_noise({1, 2, 3, 4, 5}) == inf);  // no 95% interval from 5 samples
  // n = 6: [x(1), x(6)] covers the median with 1 - 2/64 = 96.9%; half-width 2.5, median 3.5.
  CHECK(median_relative_noise({6, 5, 4, 3, 2, 1}) == Approx(2.5 / 3.5));
  // n = 10: [x(2), x(9)] (2 * 11/1024 = 2.1% outside; [x(3), x(8)] would leave 10.9%).
  CHECK(median_relative_noise({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) == Approx(3.5 / 5.5));
  // n = 20: [x(6), x(15)], the textbook interval (coverage 95.9%).
  std::vector<double> twenty;
  for (int i = 1; i <= 20; ++i) twenty.push_back(100.0 + i);
  CHECK(median_relative_noise(twenty) == Approx((115.0 - 106.0) / 2.0 / 110.5));
  CHECK(median_relative_noise(std::vector<double>(50, 3.0)) == 0.0);
  // Large n must not underflow: the half-width shrinks like 1/sqrt(n).
  std::vector<double> many;
  for (int i = 0; i < 20000; ++i) many.push_back(1000.0 + (i % 100));
  const double noise = median_relative_noise(many);
  CHECK(noise > 0.0);
  CHECK(noise < 0.01);
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
