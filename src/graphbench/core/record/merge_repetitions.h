// `graphbench run --repetitions N`: the run repeated N times, each repetition a process of its own,
// and the repetitions' results merged into one run (docs/measuring.md, repetitions).
//
// One record per (case, variant), in the order the repetitions wrote them. Where the record is ok
// in at least one repetition, the merged record is the first ok one with
//   - samples_us (and host_samples_us, issue_samples_us): those of every ok repetition, in order,
//     and the summary (median_us, ...) of them: a merged file is a run like any other;
//   - repetitions.median_ci95 and rel_noise: the median's interval across repetitions, and
//     speedup_ci95 the speedup's (core/stats/across_runs.h), with speedup_vs_eager the ratio of the
//     merged eager and variant medians;
//   - repetitions.runs: each repetition's status, median, speedup and within-run intervals;
//   - warnings: those of any repetition, once each, and one when the record was not ok in every
//     repetition.
// The other figures (profile, memory, graphs, clocks, energy, training summary) are those of the
// first ok repetition. A record ok in no repetition is the first repetition's that has it.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <optional>
#include <string>
#include <vector>

namespace graphbench {

struct RepetitionResult {
  int index = 0;                    // 1-based
  std::optional<RunReport> report;  // what the repetition wrote, if it could be read
  // "" when the repetition exited 0; else how it ended ("exited with 1", "was killed by signal 9
  // (Killed)") or why its results could not be read.
  std::string failure;
  double wall_seconds = 0.0;  // how long the repetition's process ran (0: unknown)
};

// `requested`: N. Throws InputError when no repetition left a report.
RunReport merge_repetitions(const std::vector<RepetitionResult>& repetitions, int requested);

}  // namespace graphbench
