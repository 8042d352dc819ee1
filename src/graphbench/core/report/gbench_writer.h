// results.gbench.json: the run in Google Benchmark's JSON format, so that dashboards that read
// Google Benchmark (github-action-benchmark's "googlecpp" tool, Bencher's "cpp_google" adapter)
// ingest graphbench results as they are. docs/results.md describes the mapping; docs/ci.md shows
// a CI job that uploads it.
//
// Each (case, variant) is written as Google Benchmark writes a benchmark run with
// --benchmark_repetitions, its samples being the repetitions, so that google/benchmark's
// tools/compare.py runs its Mann-Whitney U test on two graphbench files:
//   "iteration" entries, one per sample, named "case/variant" (run_name the same), repetitions n
//               (the samples), repetition_index 0..n-1, iterations steps_per_sample, real_time the
//               sample's per-step device time, cpu_time its per-step host wall time (the device
//               time where the record has no host samples), time_unit "us";
//   "aggregate" entries "case/variant_mean", "_median", "_stddev", "_cv" with aggregate_name and
//               aggregate_unit ("time"; "percentage" for cv, a fraction), iterations n; the mean
//               and median carry the record's counters, extra numeric keys: samples,
//               steps_per_sample, iqr_us, speedup_vs_eager, the profile and memory figures
//               (kernels_per_step, peak_allocated_bytes, ...) and the engine's counters (captures,
//               replays, ...). A dashboard that wants one point per benchmark reads the _median.
// A record without samples (a file of before they were kept) is one iteration entry of its
// summaries, repetitions 1. A training record adds "case/variant/total_time": the whole run in
// seconds (time_unit "s"), with its training counters. A failed or skipped record is an entry
// with error_occurred true and error_message (the status and the reason), iterations 0 and times
// 0, as Google Benchmark writes an errored run.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <nlohmann/json.hpp>

namespace graphbench {

nlohmann::json to_gbench_json(const RunReport& report);

}  // namespace graphbench
