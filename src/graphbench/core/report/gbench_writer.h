// results.gbench.json: the run in Google Benchmark's JSON format, for dashboards that read it
// (github-action-benchmark, Bencher) and google/benchmark's tools/compare.py. Each (case, variant)
// is written as a run with --benchmark_repetitions, its samples the repetitions: one "iteration"
// entry per sample (real_time its per-step device time, cpu_time its host time), then the "_mean",
// "_median", "_stddev" and "_cv" aggregates, the first two with the record's counters. A record
// without samples is one entry of its summaries; a training record adds "case/variant/total_time";
// a failed or skipped one is an errored entry. The mapping in full: docs/results.md.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <nlohmann/json.hpp>

namespace graphbench {

nlohmann::json to_gbench_json(const RunReport& report);

}  // namespace graphbench
