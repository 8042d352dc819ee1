// Do the same code's intervals agree from run to run? Over every pair of no-change runs and every
// record ok in both: whether the two runs' 95% intervals of the median step time and of the
// speedup overlap, by the block bootstrap over rounds, by the independent bootstrap, and as stored
// in the files. Honest intervals overlap in well over 95% of pairs. `graphbench calibrate` prints
// it (docs/measuring.md, intervals).
#pragma once

#include "graphbench/core/record/result_record.h"

#include <vector>

namespace graphbench {

struct OverlapCount {
  int pairs = 0;        // (pair of runs, record) with an interval on both sides
  int overlapping = 0;  // of them, how many overlap
};

struct IntervalOverlap {
  // *_stored: the intervals the files hold: the speedup's speedup_ci95; the median time's
  // repetitions.median_ci95 in a run merged from --repetitions N (across repetitions), else the
  // median +- rel_noise (the interval the run's stop rule judged).
  OverlapCount time_blocks, time_independent, time_stored;
  OverlapCount speedup_blocks, speedup_independent, speedup_stored;
};

IntervalOverlap interval_overlap(const std::vector<const RunReport*>& runs);

}  // namespace graphbench
