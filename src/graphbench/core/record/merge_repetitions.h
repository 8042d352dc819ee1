// `graphbench run --repetitions N`: the repetitions' results, each a process of its own, merged
// into one run (docs/measuring.md, repetitions). One record per (case, variant): the first ok one
// with the samples of every ok repetition (and their summary), intervals across the processes
// (median_ci95, rel_noise, speedup_ci95, the speedup from the merged medians), each repetition's
// figures, and the warnings of any once; other figures are the first ok repetition's. A record ok
// in no repetition is the first that has it.
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
