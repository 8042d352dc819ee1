// The one plain record every writer, the compare gate and the plot script consume: one per
// (case, variant), plus the run's environment. No LibTorch here.
#pragma once

#include "graphbench/core/record/environment_block.h"
#include "graphbench/core/record/gpu_conditions.h"
#include "graphbench/core/record/graph_facts.h"
#include "graphbench/core/record/record_kinds.h"
#include "graphbench/core/record/sweep_point.h"
#include "graphbench/core/stats/statistics.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// One epoch of a training run (kind "training"), as the tutorial prints it.
struct TrainingEpoch {
  int epoch = 0;
  double train_seconds = 0.0;
  double test_seconds = 0.0;
  std::int64_t logged_samples = 0;  // the tutorial's [59584/60000]
  std::int64_t dataset_size = 0;
  double logged_loss = 0.0;  // loss of the last logged batch
  double test_loss = 0.0;
  double test_accuracy = 0.0;
};

struct TrainingSummary {
  std::vector<TrainingEpoch> epochs;
  double total_seconds = 0.0;      // wall time of the whole run, data loading included
  double median_step_us = 0.0;     // device time of one training step, median over blocks (0: none ran)
  std::vector<double> step_samples_us;  // per-step device time of each block: the record's samples_us
  std::int64_t steps_per_block = 0;
  std::int64_t train_steps = 0;
  std::int64_t skipped_batches = 0;  // short last batches not trained on
  std::string train_executor;        // eager or graph
  std::string test_executor;
  // Where the run's time went, in seconds, adding up to total_seconds (docs/measuring.md, "Where the
  // time goes"): the data set loaded; set-up; warm-up and capture; training; testing; the rest.
  double load_seconds = 0.0;
  double setup_seconds = 0.0;
  double capture_seconds = 0.0;
  double train_seconds = 0.0;
  double test_seconds = 0.0;
  double other_seconds = 0.0;
  // Not parts of the sum: decoding on loader threads (overlapped with set-up); the device's context,
  // created before the clock started.
  double decode_seconds = 0.0;
  double context_seconds = 0.0;
  double graph_capture_seconds = 0.0;  // of capture_seconds, capture and instantiation alone
  // The libraries' first calls, paid once in both modes: the warm-up before capture plus the first
  // block's time above the median step. Part of the sum, not added to it.
  double first_calls_seconds = 0.0;
  std::string data_placement;  // "device": batches gathered on the device; "host": copied from host memory
  std::string batch_order;     // "sequential" or "shuffled"
  std::string time_limit_note;  // not written: why a time limit cut the run (the runner warns with it)
};

struct Roofline {
  double bytes = 0.0;  // bytes the step must move at least (declared by the workload)
  double flops = 0.0;
  double achieved_gbps = 0.0;
  std::optional<double> bandwidth_share;  // achieved / measured copy bandwidth (none on the CPU)
  double achieved_tflops = 0.0;
};

// What LibTorch's profiler saw the device run during a few steps of a variant, after its timed
// samples. Absent on the CPU.
struct KernelStat {
  std::string name;
  double per_step = 0.0;     // launches of this kernel per step
  double us_per_step = 0.0;  // its device time per step
};

struct KernelProfile {
  int steps = 0;                  // steps profiled
  double kernels_per_step = 0.0;  // kernels the device ran (kernels of a graph replay included)
  double copies_per_step = 0.0;   // memcpy and memset operations on the device
  double busy_us_per_step = 0.0;  // the union of their intervals: overlapping work counted once
  // Their summed durations (over busy_us_per_step: the concurrency); absent in older files.
  std::optional<double> summed_us_per_step;
  // busy_us_per_step over the median step: 1 - busy_share is the device's idle share. Absent without a median.
  std::optional<double> busy_share;
  std::vector<KernelStat> kernels;  // by device time, most first (the first few)
};

// Device memory over the variant's timed samples (CUDA caching allocator). Absent without CUDA.
struct MemoryUse {
  std::int64_t peak_allocated_bytes = 0;  // highest allocated, everything alive in the process counted
  std::int64_t peak_reserved_bytes = 0;   // highest reserved (allocated plus cached)
  std::int64_t step_peak_bytes = 0;       // the most a sample's steps allocated above its start
  std::optional<std::int64_t> graph_pool_bytes;  // reserved by the variant's graph pools together
};

struct PublishedComparison {
  std::optional<double> speedup;
  std::optional<double> eager_us;
  std::optional<double> variant_us;
  std::string source;
  std::string device;
};

// A weight whose gradient a data-parallel step all-reduced in row chunks (rows per chunk, in order).
struct GradientChunks {
  std::string param;
  std::vector<std::int64_t> rows;
};

// A case run data-parallel (`--nproc N`, or under torchrun), weak scaling: the ranks' steps, the
// gradient all-reduce alone, and the scaling against a world of one (docs/distributed.md). Fields
// added after the first files read their defaults from files written before them.
struct DataParallelFigures {
  int world_size = 1;
  std::string backend;                   // nccl or gloo
  std::string backend_version;  // "2.27.5" for NCCL; "" where unknown
  // The variables that tuned it on rank 0 (NCCL_*, ...); no value: not recorded.
  std::optional<std::map<std::string, std::string>> backend_settings;
  std::int64_t samples_per_rank = 0;     // the case's batch
  std::int64_t global_batch = 0;         // world_size x samples_per_rank
  std::vector<double> rank_median_us;    // each rank's median step time, by rank
  double median_us = 0.0;                // the median of the ranks' medians
  int slowest_rank = 0;
  double slowest_median_us = 0.0;        // the world's step: every rank waits for the slowest
  double samples_per_second = 0.0;       // global_batch / slowest_median_us
  std::int64_t gradient_bytes = 0;       // what one step all-reduces
  std::int64_t buckets = 0;
  // How the step averaged its gradients: as computed or compressed ("bfloat16"), the bucket cap,
  // whether each bucket's all-reduce overlapped the backward pass, the chunk cap (0: none) and the
  // weights chunked under it, and how each bucket's sum travelled.
  std::string grad_dtype = "float32";
  std::int64_t bucket_cap_bytes = 0;
  bool overlapped = false;
  std::int64_t chunk_cap_bytes = 0;
  std::vector<GradientChunks> chunked_gradients;
  std::string grad_transport = "collective";  // or "copy-engine", "symmetric-memory"
  // Where the ranks were (parallel/communication/node_layout.h): nodes, hosts, the ranks on each
  // node, and what carried the all-reduces ("NET/Socket", "P2P/SHM", "gloo/tcp", ...) on what basis.
  int nodes = 0;
  int hosts = 0;
  std::vector<int> ranks_per_node;
  std::string transport;
  std::string transport_basis;
  std::optional<double> all_reduce_us;  // the gradient all-reduce alone, median on rank 0
  // The step without any all-reduce (slowest rank's median), and slowest_median_us minus it: the
  // all-reduce time the backward pass did not hide (noise can make it slightly negative).
  std::optional<double> no_all_reduce_us;
  std::optional<double> exposed_all_reduce_us;
  // Rank 0 alone in this run, median; the scaling efficiency one_rank_us / slowest_median_us and
  // its 95% bootstrap interval.
  std::optional<double> one_rank_us;
  std::optional<double> scaling_efficiency;
  std::optional<stats::Interval> scaling_ci95;
  // Params after validation: bit-identical on every rank, and their largest difference from one
  // process training on the whole global batches.
  bool params_identical = false;
  std::optional<double> max_error_vs_one_process;
};

// One repetition's view of a record merged from `--repetitions N` processes (merge_repetitions.h).
struct RepetitionFigures {
  std::string status;  // ok, skipped, failed, or missing (no such record; `reason` says why)
  std::string reason;
  std::int64_t samples = 0;
  std::optional<double> median_us;
  std::optional<stats::Interval> median_ci95;  // within the repetition (block bootstrap over rounds)
  std::optional<double> speedup_vs_eager;
  std::optional<stats::Interval> speedup_ci95;  // as that repetition stored it
};

struct Repetitions {
  int requested = 0;  // N
  int succeeded = 0;  // repetitions whose record is ok: the merged samples are theirs
  // The median step time's 95% interval across repetitions (the speedup's: speedup_ci95).
  std::optional<stats::Interval> median_ci95;
  std::vector<RepetitionFigures> runs;  // one per repetition, in order
  // Variance components of log(step time) (core/stats/block_bootstrap.h): rounds within a
  // process (T1), processes (T2), and the rounds per process that buy the most precision.
  std::optional<double> round_sd, process_sd, optimal_rounds;
};

// The start of the reason of an ok graph variant that ran its step eagerly because its capture
// failed (engine/runner/case_records.h).
inline constexpr const char* kRanEagerlyReason = "ran eagerly, capture failed: ";

struct ResultRecord {
  std::string case_name;
  std::string workload;
  std::string variant;
  StepMethod method = StepMethod::kUnknown;  // what one timed step did (Variant::method)
  RecordKind kind = RecordKind::kBenchmark;
  Mode mode = Mode::kInference;
  std::string dtype;
  std::string device;
  nlohmann::json params = nlohmann::json::object();
  std::optional<SweepPoint> sweep;  // a point of a sweep: its case's own name, the axis, the value
  std::string scope = "full";  // the case's capture scope, as CaptureScope::to_string writes it
  std::string scope_group;     // a point of a scope sweep: the case whose scopes it compares

  RecordStatus status = RecordStatus::kOk;
  std::string reason;  // why skipped or failed; for an ok graph variant whose capture failed,
                       // kRanEagerlyReason and why (its step ran eagerly)

  // Per-step device time of each sample (a training record's: of its blocks), and host wall time.
  std::int64_t steps_per_sample = 0;
  std::vector<double> samples_us;
  std::vector<double> host_samples_us;
  std::vector<double> issue_samples_us;  // per-step host time to issue the steps (CUDA only)
  std::optional<stats::Summary> stats;
  std::optional<stats::Summary> host_stats;
  std::optional<double> issue_median_us;
  std::optional<bool> host_bound;  // issue time within 5% of device time: the GPU waits (CUDA only)
  // Device time per step with the steps queued ahead, the host off the clock (CUDA, hot L2 only).
  std::optional<double> back_to_back_us;
  std::optional<L2Cache> l2;  // CUDA runs; absent on the CPU
  double rel_noise = 0.0;  // relative 95% half-width of the median
  // The samples the run asked for at least; a record with fewer has no interval (has_too_few_samples).
  std::optional<int> min_samples;
  std::string stop_reason;
  std::optional<double> speedup_vs_eager;
  std::optional<stats::Interval> speedup_ci95;
  std::optional<double> capture_ms;  // capture + instantiate, reported on its own
  std::optional<double> warmup_ms;   // the warm-up steps run before the capture, wall time
  // Replays that repay capture and warm-up, and their seconds (core/stats/break_even.h); absent
  // where the graph saves nothing.
  std::optional<std::int64_t> break_even_replays;
  std::optional<double> break_even_s;
  std::optional<double> max_abs_error;  // against eager, from validation
  // How the variant passed validation where not strictly within the tolerances; "" if it did.
  std::string validation_note;
  // The SM clock just before the variant's first sample and just after its last (NVML).
  std::optional<double> sm_clock_start_mhz;
  std::optional<double> sm_clock_end_mhz;
  std::optional<GpuConditions> gpu_conditions;  // core/record/gpu_conditions.h; absent off the GPU
  std::optional<EnergyPerStep> energy;          // absent unless energy was asked for (--energy on)
  std::optional<Roofline> roofline;
  std::optional<KernelProfile> profile;
  std::vector<GraphFacts> graphs;  // one per captured graph (graph variants)
  // Graphs one step replays (0: the capture fell back to eager); absent for variants that capture nothing.
  std::optional<std::int64_t> graphs_per_step;
  std::optional<double> launches_per_step;  // core/record/launches.h; absent without a kernel profile
  std::optional<MemoryUse> memory;
  std::map<std::string, std::int64_t> counters;
  std::vector<std::string> warnings;
  std::optional<PublishedComparison> published;
  std::optional<TrainingSummary> training;  // kind training
  std::optional<DataParallelFigures> data_parallel;  // run data-parallel
  std::optional<Repetitions> repetitions;  // merged from --repetitions N (N > 1)
};

// Fewer samples than the run asked for (min_samples): a figure without an interval.
bool has_too_few_samples(const ResultRecord& record);

// Ok and timed: not null, status ok, with samples.
bool has_ok_samples(const ResultRecord* record);

// A training run's record (kind training, or one that carries its training summary).
bool is_training(const ResultRecord& record);

// The record's status as results.md and the compare gate write it: "ok", "skipped: WHY",
// "FAILED: WHY" (the reason left out where there is none).
std::string status_text(const ResultRecord& record);

// "2 nodes of 1 rank", "1 node of 4 ranks", "2 nodes of 3, 1 ranks": ranks laid out on nodes, by node.
std::string nodes_text(const std::vector<int>& ranks_per_node);

struct RunReport {
  Environment environment;
  std::vector<ResultRecord> records;
  // Stopped by a signal: the records are those of the cases that finished; the others are absent.
  bool interrupted = false;
  std::string interrupted_by;  // "SIGINT", "SIGTERM"
  std::vector<SharedPoolMeasurement> shared_pools;  // one per sweep and graph variant measured

  // The record of (case, variant), or null.
  const ResultRecord* find(const std::string& case_name, const std::string& variant) const;
};

}  // namespace graphbench
