// The gate's rule without --calibration or --aa (compare.h): judged from the files' own processes.
// Used by compare.cpp and verdict_rule.cpp; not part of the public API.
//
// Within-run intervals know nothing of what changes between processes (a host-bound eager step
// moved 36 to 55 us between four processes of one commit on an H200, each within +-0.8%), so a
// gate that judged them alone would fail unchanged code. A run of several processes (the default
// on a GPU, `--repetitions N`) keeps each process's median (and speedup) in its records, and the
// gate uses those values:
//   x_i = log(value of process i) on each side (metric time: the process's median step time;
//         metric speedup: its variant median over its eager median);
//   s   = the pooled standard deviation of x within each side, nb + nc - 2 degrees of freedom;
//   log r = mean(x current) - mean(x baseline), of standard deviation s sqrt(1/nb + 1/nc) under
//         no change: a two-sample t test, its one-sided p-values through Holm's procedure over
//         the rows at alpha 1% (calibrated_rule.h), so that an unchanged run fails the gate
//         anywhere with probability at most 1%: a default gate must not cry wolf, and a few
//         processes hide a host that switches pace between two modes less well than a
//         calibration's many runs. SLOWER needs Holm's rejection and r > 1 + max(t,
//         kUnknownRunToRun): the processes of one run share the minutes they ran in, and on an
//         H200 (a3535b7, results/NVIDIA-H200/aa-default) the four processes of one run agreed
//         within about 5% while whole runs of unchanged code moved up to 1.54x (gelu-small's eager
//         step, 32.4 against 50.3 us): the process level does not hold the run level, which only
//         a calibration's runs spread over time measure. A smaller significant move is UNSURE.
// Where either file holds one process for the record (results written before, or
// `--repetitions 1`), there is no process-level spread: the within-run interval is judged with the
// threshold raised to kUnknownRunToRun, so that a slowdown smaller than the largest move measured
// between processes of unchanged code is never called SLOWER from within-run intervals alone.
#pragma once

#include "graphbench/core/compare/compare.h"
#include "graphbench/core/record/result_record.h"

#include <vector>

namespace graphbench::compare_detail {

// The largest move of an unchanged record between processes or runs measured on our GPUs was
// 1.54x (gelu-small's eager step: 36 and 55 us between processes on an H200, 32.4 and 50.3 us
// between runs of four processes on another; 1.46x on an H100); a slowdown below 75% is not called
// SLOWER without a calibration. A doubled step (--inject-slowdown graph=2) still is.
inline constexpr double kUnknownRunToRun = 0.75;
// The family-wise false-alarm rate of the process-level rule over a comparison's rows (Holm).
// Simulated on the H100's eight committed ci runs (the first 400 rounds of each as one process,
// every split into two runs of four): 1 of 70 no-change comparisons failed at 5%, none at 1%,
// and a doubled graph step was caught in 70 of 70 at either.
inline constexpr double kProcessRuleAlpha = 0.01;
// Processes a side needs for the process-level rule (a spread needs two).
inline constexpr int kMinProcesses = 2;

// One value per process whose record was ok: metric time, its median step time; metric speedup,
// its variant / eager time ratio (1 / speedup_vs_eager). Empty for a record of one process.
std::vector<double> process_values(const ResultRecord& record, CompareOptions::Metric metric);

// Sets the ratio, spread, degrees of freedom, p-value and 95% CI of a row from both sides'
// process values (each at least kMinProcesses, positive); the verdict comes from Holm
// (judge_calibrated_rows).
void measure_processes(Comparison& row, const std::vector<double>& baseline, const std::vector<double>& current);

}  // namespace graphbench::compare_detail
