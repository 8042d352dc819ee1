// Kalibera and Jones, "Rigorous Benchmarking in Reasonable Time" (ISMM 2013), on log values: from n
// processes of r rounds, T1^2 = S1^2 (the mean variance of the rounds within a process) and T2^2 =
// S2^2 - S1^2 / r (of the processes' means, 0 if negative), and the rounds per process that buy the
// most precision for the time, r1 = sqrt((c2 / c1) (T1^2 / T2^2)). Rounds are taken as independent.
// See docs/measuring.md (repetitions).
#pragma once

#include <vector>

namespace graphbench::stats {

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
