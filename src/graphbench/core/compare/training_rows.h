// The rows a training record adds to its step-time row: the whole run's total time and its final
// test accuracy (the rule is at the top of compare.h). Internal to compare/.
#pragma once

#include "graphbench/core/compare/compare.h"

#include <vector>

namespace graphbench::compare_detail {

// A training record in the baseline and the current run, ok on both sides, with the eager
// records of its case (for --metric speedup) and its A/A records; any of the last four may be null.
struct TrainingPair {
  const ResultRecord* base = nullptr;
  const ResultRecord* cur = nullptr;
  const ResultRecord* base_eager = nullptr;
  const ResultRecord* cur_eager = nullptr;
  const ResultRecord* aa = nullptr;
  const ResultRecord* aa_eager = nullptr;
};

// `step_noise`: the within-run noise of the step-time row (NaN: none), a floor of the total's threshold.
std::vector<Comparison> training_rows(const TrainingPair& pair, const CompareOptions& options, double step_noise);

}  // namespace graphbench::compare_detail
