// The plain fields of results.json's objects, listed once for the writer (json_writer.cpp) and the
// reader (json_reader.cpp): list(s, f) calls f(key, member) for every field in turn. Fields that need
// more than their type says (arrays of objects, bounds, nulls of their own) are handled beside it.
#pragma once

#include "graphbench/core/record/result_record.h"

namespace graphbench {

// A record's plain fields; its kinds, summary, host median, noise and nested objects are beside.
inline constexpr auto record_fields = [](auto& r, auto&& f) {
  f("samples_us", r.samples_us); f("host_samples_us", r.host_samples_us); f("issue_samples_us", r.issue_samples_us);
  f("issue_median_us", r.issue_median_us); f("host_bound", r.host_bound); f("back_to_back_us", r.back_to_back_us);
  f("stop_reason", r.stop_reason); f("min_samples", r.min_samples); f("speedup_vs_eager", r.speedup_vs_eager);
  f("speedup_ci95", r.speedup_ci95); f("capture_ms", r.capture_ms); f("warmup_ms", r.warmup_ms);
  f("break_even_replays", r.break_even_replays); f("break_even_s", r.break_even_s);
  f("max_abs_error", r.max_abs_error);
};

// A record's summary of its samples (stats::Summary), beside the record's other keys.
inline constexpr auto summary_fields = [](auto& s, auto&& f) {
  f("median_us", s.median); f("iqr_us", s.iqr); f("min_us", s.min); f("max_us", s.max); f("mean_us", s.mean);
  f("stddev_us", s.stddev); f("cv", s.cv); f("q1_us", s.q1); f("q3_us", s.q3);
};

inline constexpr auto environment_fields = [](auto& e, auto&& f) {
  f("date_utc", e.date_utc); f("host", e.host); f("os", e.os); f("git_commit", e.git_commit);
  f("build_type", e.build_type); f("compiler", e.compiler); f("libtorch_version", e.libtorch_version);
  f("device", e.device); f("gpu_name", e.gpu_name); f("driver_version", e.driver_version);
  f("cuda_runtime_version", e.cuda_runtime_version); f("cudnn_version", e.cudnn_version);
  f("sm_count", e.sm_count); f("gpu_memory_gib", e.gpu_memory_gib); f("sm_clock_max_mhz", e.sm_clock_max_mhz);
  f("copy_bandwidth_gbps", e.copy_bandwidth_gbps); f("cpu_count", e.cpu_count); f("cpu_mhz", e.cpu_mhz);
  f("cpu_scaling_enabled", e.cpu_scaling_enabled); f("load_avg", e.load_avg);
  f("command_line", e.command_line); f("suite", e.suite); f("config_path", e.config_path);
};

inline constexpr auto training_epoch_fields = [](auto& e, auto&& f) {
  f("epoch", e.epoch); f("train_seconds", e.train_seconds); f("test_seconds", e.test_seconds);
  f("logged_samples", e.logged_samples); f("dataset_size", e.dataset_size); f("logged_loss", e.logged_loss);
  f("test_loss", e.test_loss); f("test_accuracy", e.test_accuracy);
};

// Beside: epochs, median_step_us (0 written as null).
inline constexpr auto training_fields = [](auto& t, auto&& f) {
  f("total_seconds", t.total_seconds); f("train_steps", t.train_steps); f("skipped_batches", t.skipped_batches);
  f("train_executor", t.train_executor); f("test_executor", t.test_executor);
  f("load_seconds", t.load_seconds); f("setup_seconds", t.setup_seconds); f("capture_seconds", t.capture_seconds);
  f("train_seconds", t.train_seconds); f("test_seconds", t.test_seconds); f("other_seconds", t.other_seconds);
  f("decode_seconds", t.decode_seconds); f("context_seconds", t.context_seconds);
  f("graph_capture_seconds", t.graph_capture_seconds); f("first_calls_seconds", t.first_calls_seconds);
  f("data_placement", t.data_placement); f("batch_order", t.batch_order);
};

// Beside: kernels; written only: concurrency, idle_share.
inline constexpr auto profile_fields = [](auto& p, auto&& f) {
  f("steps", p.steps); f("kernels_per_step", p.kernels_per_step); f("copies_per_step", p.copies_per_step);
  f("busy_us_per_step", p.busy_us_per_step); f("summed_us_per_step", p.summed_us_per_step);
  f("busy_share", p.busy_share);
};

inline constexpr auto kernel_fields = [](auto& k, auto&& f) {
  f("name", k.name); f("per_step", k.per_step); f("us_per_step", k.us_per_step);
};

inline constexpr auto graph_fields = [](auto& g, auto&& f) {
  f("kernel_nodes", g.kernel_nodes); f("nodes", g.nodes); f("pool_reserved_bytes", g.pool_reserved_bytes);
  f("pool_allocated_bytes", g.pool_allocated_bytes);
};

// Beside: step_peak_bytes (of either sign).
inline constexpr auto memory_fields = [](auto& m, auto&& f) {
  f("peak_allocated_bytes", m.peak_allocated_bytes); f("peak_reserved_bytes", m.peak_reserved_bytes);
  f("graph_pool_bytes", m.graph_pool_bytes);
};

// Beside: throttle_reasons.
inline constexpr auto gpu_conditions_fields = [](auto& c, auto&& f) {
  f("memory_clock_mhz", c.memory_clock_mhz); f("temperature_c", c.temperature_c); f("power_w", c.power_w);
  f("sm_clock_mean_mhz", c.sm_clock_mean_mhz); f("sm_clock_reference_mhz", c.sm_clock_reference_mhz);
};

// Beside: seconds (null reads as 0), unavailable ("" written as null).
inline constexpr auto energy_fields = [](auto& e, auto&& f) {
  f("joules_per_step", e.joules_per_step); f("vs_eager", e.vs_eager); f("joules", e.joules); f("steps", e.steps);
  f("update_interval_ms", e.update_interval_ms);
};

inline constexpr auto roofline_fields = [](auto& r, auto&& f) {
  f("bytes", r.bytes); f("flops", r.flops); f("achieved_gbps", r.achieved_gbps);
  f("bandwidth_share", r.bandwidth_share); f("achieved_tflops", r.achieved_tflops);
};

inline constexpr auto published_fields = [](auto& p, auto&& f) {
  f("speedup", p.speedup); f("eager_us", p.eager_us); f("variant_us", p.variant_us); f("source", p.source);
  f("device", p.device);
};

inline constexpr auto repetition_fields = [](auto& r, auto&& f) {
  f("status", r.status); f("reason", r.reason); f("samples", r.samples); f("median_us", r.median_us);
  f("median_ci95", r.median_ci95); f("speedup_vs_eager", r.speedup_vs_eager); f("speedup_ci95", r.speedup_ci95);
};

// Beside: requested (at least 1), runs.
inline constexpr auto repetitions_fields = [](auto& r, auto&& f) {
  f("succeeded", r.succeeded); f("median_ci95", r.median_ci95); f("round_sd", r.round_sd);
  f("process_sd", r.process_sd); f("optimal_rounds", r.optimal_rounds);
};

// Beside: world_size (at least 1), backend_settings, chunked_gradients, ranks_per_node,
// params_identical (null refused).
inline constexpr auto data_parallel_fields = [](auto& d, auto&& f) {
  f("backend", d.backend); f("backend_version", d.backend_version); f("samples_per_rank", d.samples_per_rank);
  f("global_batch", d.global_batch); f("rank_median_us", d.rank_median_us); f("median_us", d.median_us);
  f("slowest_rank", d.slowest_rank); f("slowest_median_us", d.slowest_median_us);
  f("samples_per_second", d.samples_per_second); f("gradient_bytes", d.gradient_bytes); f("buckets", d.buckets);
  f("grad_dtype", d.grad_dtype); f("bucket_cap_bytes", d.bucket_cap_bytes); f("overlapped", d.overlapped);
  f("chunk_cap_bytes", d.chunk_cap_bytes); f("grad_transport", d.grad_transport); f("nodes", d.nodes);
  f("hosts", d.hosts); f("transport", d.transport); f("transport_basis", d.transport_basis);
  f("all_reduce_us", d.all_reduce_us); f("no_all_reduce_us", d.no_all_reduce_us);
  f("exposed_all_reduce_us", d.exposed_all_reduce_us); f("one_rank_us", d.one_rank_us);
  f("scaling_efficiency", d.scaling_efficiency); f("scaling_efficiency_ci95", d.scaling_ci95);
  f("max_error_vs_one_process", d.max_error_vs_one_process);
};

}  // namespace graphbench
