// results.gbench.json: the run in Google Benchmark's JSON format, so that dashboards that read
// Google Benchmark (github-action-benchmark's "googlecpp" tool, Bencher's "cpp_google" adapter)
// ingest graphbench results as they are. docs/results.md describes the mapping; docs/ci.md shows
// a CI job that uploads it.
//
// One "iteration" entry per (case, variant), named "case/variant":
//   real_time   median per-step device time (samples_us), time_unit "us"
//   cpu_time    median per-step host wall time (host_samples_us; real_time when there are none)
//   iterations  steps timed (samples x steps_per_sample; a training run: its training steps)
//   counters    extra numeric keys: samples, steps_per_sample, iqr_us, speedup_vs_eager, the
//               profile and memory figures (kernels_per_step, peak_allocated_bytes, ...) and the
//               engine's counters (captures, replays, ...)
// A training record adds "case/variant/total_time": the whole run in seconds (time_unit "s").
// A failed or skipped record is an entry with error_occurred true and error_message (the status
// and the reason), iterations 0 and times 0, as Google Benchmark writes an errored run.
#pragma once

#include "graphbench/record/result_record.h"

#include <nlohmann/json.hpp>

namespace graphbench {

nlohmann::json to_gbench_json(const RunReport& report);

}  // namespace graphbench
