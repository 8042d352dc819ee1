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
  // Per-step device time of each block of `steps_per_block` steps, in order: the raw samples the
  // record carries as samples_us, which `compare` gates on.
  std::vector<double> step_samples_us;
  std::int64_t steps_per_block = 0;
  std::int64_t train_steps = 0;
  std::int64_t skipped_batches = 0;  // short last batches not trained on
  std::string train_executor;        // eager or graph
  std::string test_executor;
  // Where the run's time went, in seconds (they add up to total_seconds): reading and decoding
  // the data set and putting it on the device; building the model, programs and executors;
  // binding, warm-up and capture before the first step; the epochs' training; their test passes;
  // the rest (printing, summing up).
  double load_seconds = 0.0;
  double setup_seconds = 0.0;
  double capture_seconds = 0.0;
  double train_seconds = 0.0;
  double test_seconds = 0.0;
  double other_seconds = 0.0;
  // Not parts of the sum: reading and decoding the data set on loader threads, overlapped with
  // setup and capture (load_seconds is what the run waited for the data); creating the device's
  // context before the clock started (a cost of the process, paid once).
  double decode_seconds = 0.0;
  double context_seconds = 0.0;
  // Of capture_seconds, the graphs' capture and instantiation alone; the rest of it is binding and
  // the warm-up steps before each capture, where the libraries' first calls (cuDNN and cuBLAS
  // handles, kernel loading, convolution plans) are paid. 0 when nothing was captured.
  double graph_capture_seconds = 0.0;
  // What the run paid once for the libraries' first calls, in both modes alike: the warm-up before
  // capture (capture_seconds less graph_capture_seconds; 0 for eager) plus the time the first block
  // of training steps took above its steps times the median step (eager pays its first calls
  // there). Part of the sum above, not added to it. See docs/measuring.md (training runs).
  double first_calls_seconds = 0.0;
  std::string data_placement;  // "device": batches gathered on the device; "host": copied from host memory
  std::string batch_order;     // "sequential" or "shuffled"
  // Not written: where a time limit cut the run short, why ("trained 3 of 10 epochs: ..."); the
  // runner moves it into the record's warnings.
  std::string time_limit_note;
};

struct Roofline {
  double bytes = 0.0;  // bytes the step must move at least (declared by the workload)
  double flops = 0.0;
  double achieved_gbps = 0.0;
  std::optional<double> bandwidth_share;  // achieved / measured copy bandwidth (none on the CPU)
  double achieved_tflops = 0.0;
};

// What LibTorch's profiler saw the device run during a few steps of a variant, profiled after its
// timed samples. Absent (null) where there is no profiler: a CPU build, a CPU run.
struct KernelStat {
  std::string name;
  double per_step = 0.0;     // launches of this kernel per step
  double us_per_step = 0.0;  // its device time per step
};

struct KernelProfile {
  int steps = 0;                  // steps profiled
  double kernels_per_step = 0.0;  // kernels the device ran (kernels of a graph replay included)
  double copies_per_step = 0.0;   // memcpy and memset operations on the device
  // How long the device was busy with those kernels, copies and memsets: the union of their
  // intervals (overlapping work counted once; core/stats/interval_union.h).
  double busy_us_per_step = 0.0;
  // Their summed durations; over busy_us_per_step, the concurrency (1: nothing overlapped).
  // Absent in files written before (whose busy_us_per_step was this sum).
  std::optional<double> summed_us_per_step;
  // busy_us_per_step over the median step time: a graph's efficiency; 1 - busy_share is the
  // share of the step the device sat idle (waiting for the host). Absent without a median.
  std::optional<double> busy_share;
  std::vector<KernelStat> kernels;  // by device time, most first (the first few)
};

// Device memory over the variant's timed samples (CUDA caching allocator, peaks reset before each
// sample). Absent without a CUDA device.
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

// A weight whose gradient a data-parallel step computed and all-reduced in row chunks (its rows
// per chunk, in row order), so that the first chunks' all-reduce ran while backward computed the rest.
struct GradientChunks {
  std::string param;
  std::vector<std::int64_t> rows;
};

// A case run data-parallel (`--nproc N`, or under torchrun): how the ranks' steps compare, the
// gradient all-reduce alone, and the scaling against the same case in a world of one. Weak scaling:
// each rank trains `samples_per_rank` rows per step, so one step of N ranks trains N times that.
struct DataParallelFigures {
  int world_size = 1;
  std::string backend;                   // nccl or gloo
  // The backend's version ("2.27.5" for NCCL; "" where unknown) and the environment variables that
  // tuned it on rank 0 (NCCL_*, TORCH_NCCL_*, ...: parallel/communication/environment_variables.h). Files written
  // before these existed read "" and no value (not recorded, as against recorded and none set).
  std::string backend_version;
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
  // How the step averaged its gradients: "float32" as computed or "bfloat16" (compressed), the cap
  // of a bucket, and whether each bucket's all-reduce ran during the backward pass (overlapped) or
  // after it. Files written before these existed read "float32", 0 and false.
  std::string grad_dtype = "float32";
  std::int64_t bucket_cap_bytes = 0;
  bool overlapped = false;
  // The cap of a gradient chunk ("grad_chunk_mb"; 0: none) and the weights the step chunked under it
  // (their chunks count as gradients in `buckets`). Files written before these existed read 0 and none.
  std::int64_t chunk_cap_bytes = 0;
  std::vector<GradientChunks> chunked_gradients;
  // How each bucket's sum travelled ("grad_transport": "collective", "copy-engine" or "symmetric-memory"). Files written
  // before it existed read "collective".
  std::string grad_transport = "collective";
  // Where the ranks were (parallel/communication/node_layout.h): on how many nodes (torchrun's
  // nodes: the ranks one agent started, or hosts) and hosts, the ranks on each node (by node, in
  // the order of their lowest rank), and what carried the all-reduces between them ("NET/Socket",
  // "NET", "P2P/SHM", "gloo/tcp", ...) with what that rests on: derived from the backend, the layout
  // and its settings (NCCL_DEBUG=INFO's "via NET/Socket" lines confirm it). Files written before
  // these existed read 0 nodes, 0 hosts, none and "" (not recorded).
  int nodes = 0;
  int hosts = 0;
  std::vector<int> ranks_per_node;
  std::string transport;
  std::string transport_basis;
  // The gradient all-reduce alone (pack, all-reduce, average), median on rank 0: run as this
  // variant runs it (eagerly, or captured and replayed for graph variants).
  std::optional<double> all_reduce_us;
  // The same variant's step without any all-reduce (each rank on its own shard, the ranks timed
  // at once in the same run), the slowest rank's median; and slowest_median_us minus it: the
  // all-reduce time the backward pass did not hide (noise can make it slightly negative).
  std::optional<double> no_all_reduce_us;
  std::optional<double> exposed_all_reduce_us;
  // The same variant in a world of one (rank 0 alone, the same batch, timed in this run while the
  // other ranks waited), median; and the scaling efficiency, the ratio of two medians: one_rank_us
  // over slowest_median_us (throughput with N ranks over N times that of one), with a 95% bootstrap
  // interval from the two sample sets (the one-rank step's and the slowest rank's). Files written
  // before the interval existed read none.
  std::optional<double> one_rank_us;
  std::optional<double> scaling_efficiency;
  std::optional<stats::Interval> scaling_ci95;
  // Params after the validation steps: bit-identical on every rank (an all-reduce of fingerprints),
  // and their largest difference from one process training on the whole global batches.
  bool params_identical = false;
  std::optional<double> max_error_vs_one_process;
};

// One repetition's view of a record merged from `--repetitions N` runs, each in a process of its
// own (core/record/merge_repetitions.h).
struct RepetitionFigures {
  // ok, skipped, failed, or missing: the repetition wrote no such record (it crashed, was stopped,
  // or its results could not be read; `reason` says which).
  std::string status;
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
  // The 95% interval of the median step time across repetitions (core/stats/across_runs.h); the
  // speedup's is the record's speedup_ci95. Absent without an ok repetition.
  std::optional<stats::Interval> median_ci95;
  std::vector<RepetitionFigures> runs;  // one per repetition, in order
  // Kalibera and Jones's variance components of log(step time) (core/stats/variance_components.h),
  // from the ok repetitions' samples: the spread of rounds within a process (T1), of processes
  // beyond what their rounds explain (T2), and the rounds per process that would buy the most
  // precision for the time, with a process's wall time as its cost. Absent below two processes.
  std::optional<double> round_sd, process_sd, optimal_rounds;
};

// The start of the reason of an ok graph variant that ran its step eagerly because its capture
// failed (engine/runner/case_records.h).
inline constexpr const char* kRanEagerlyReason = "ran eagerly, capture failed: ";

struct ResultRecord {
  std::string case_name;
  std::string workload;
  std::string variant;
  // What one timed step did: "run", "feed+run", "feed+replay" (inputs copied into the graph's
  // buffers, then replayed) or "replay" (the replay alone, inputs already in place).
  StepMethod method = StepMethod::kUnknown;
  RecordKind kind = RecordKind::kBenchmark;
  Mode mode = Mode::kInference;
  std::string dtype;
  std::string device;
  nlohmann::json params = nlohmann::json::object();
  std::optional<SweepPoint> sweep;  // a point of a sweep: its case's own name, the axis, the value
  // The case's capture scope (core/workload/capture_scope.h), as CaptureScope::to_string writes it: what
  // its graph variants captured ("full": the whole step, the default and what files without the
  // field read). A case swept over scopes is named NAME[scope=SCOPE] (docs/scopes.md).
  std::string scope = "full";
  // A point of a scope sweep: the case whose scopes it compares (CaseSpec::scope_group), written as
  // "scope_group"; "" otherwise. The scope verdicts group records by it (core/sweep/scope_verdict.h).
  std::string scope_group;

  RecordStatus status = RecordStatus::kOk;
  std::string reason;  // why skipped or failed; for an ok graph variant whose capture failed,
                       // kRanEagerlyReason and why (its step ran eagerly)

  // Timing. samples_us: per-step device time of each sample (CUDA events on the GPU, a steady
  // clock on the CPU); host_samples_us: per-step host wall time of each sample (kind benchmark).
  // A training record's samples are the per-step times of its blocks of steps.
  std::int64_t steps_per_sample = 0;
  std::vector<double> samples_us;
  std::vector<double> host_samples_us;
  std::vector<double> issue_samples_us;  // per-step host time to issue the steps (CUDA only)
  std::optional<stats::Summary> stats;
  std::optional<stats::Summary> host_stats;
  std::optional<double> issue_median_us;
  // The median issue time within 5% of the median device time: the GPU waits for the CPU.
  // Absent on the CPU.
  std::optional<bool> host_bound;
  // Device time per step with the steps queued ahead of the device, the host's launches off the
  // clock (engine/timing/back_to_back.h). CUDA with a hot L2 only; absent elsewhere.
  std::optional<double> back_to_back_us;
  std::optional<L2Cache> l2;  // CUDA runs; absent on the CPU
  double rel_noise = 0.0;  // relative 95% half-width of the median
  // The samples the run asked for at least (the case's min_samples; absent in files written before
  // it was recorded). A record with fewer (its case timed out) has no interval: rel_noise
  // infinite (null in JSON), no speedup_ci95, and a mark in results.md (has_too_few_samples).
  std::optional<int> min_samples;
  std::string stop_reason;
  std::optional<double> speedup_vs_eager;
  std::optional<stats::Interval> speedup_ci95;
  std::optional<double> capture_ms;  // capture + instantiate, reported on its own
  std::optional<double> warmup_ms;   // the warm-up steps run before the capture, wall time
  // What capturing costs, in replays: (capture + warm-up) over the time one replay saves against
  // eager's median, rounded up; and as seconds of stepping at this variant's median. Absent where
  // the graph saves nothing (or there is no capture or no eager). core/stats/break_even.h.
  std::optional<std::int64_t> break_even_replays;
  std::optional<double> break_even_s;
  std::optional<double> max_abs_error;  // against eager, from validation
  // How the variant passed validation where it did not match eager strictly within the
  // tolerances (within the spread of eager itself, or with the case's randomness off); "" if it did.
  std::string validation_note;
  // The SM clock just before the variant's first sample and just after its last (NVML).
  std::optional<double> sm_clock_start_mhz;
  std::optional<double> sm_clock_end_mhz;
  std::optional<GpuConditions> gpu_conditions;  // core/record/gpu_conditions.h; absent off the GPU
  std::optional<EnergyPerStep> energy;          // absent unless energy was asked for (--energy on)
  std::optional<Roofline> roofline;
  std::optional<KernelProfile> profile;
  std::vector<GraphFacts> graphs;  // one per captured graph (graph variants)
  // Graphs one step replays (engine graph variants: 1 for the full scope, one per captured segment
  // otherwise, 0 when the capture fell back to eager); absent for variants that capture nothing.
  std::optional<std::int64_t> graphs_per_step;
  // What the host launches per step (core/record/launches.h): each graph replay counts one, each kernel
  // run outside a graph one. From the kernel profile; absent without one (CPU runs).
  std::optional<double> launches_per_step;
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
};

}  // namespace graphbench
