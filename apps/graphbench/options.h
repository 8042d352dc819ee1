// What the command line asks for, before it is turned into library calls.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench::cli {

struct RunOptions {
  std::string config;        // run --config FILE
  std::string workload;      // --suite NAME (or --workload NAME): the suite configs/NAME.json
  std::string configs_dir;   // where --workload looks (default: ./configs, then the source tree's)
  std::optional<std::string> variants;  // comma-separated filter (given empty: an error)
  // Each --cases value is a comma-separated list of case names; "\," is a comma inside a name.
  std::vector<std::string> cases;
  std::string filter;        // --filter REGEX: cases (or case/variant) by pattern (core/suite/case_filter.h)
  // --sweep AXIS=V1,V2,... (and --sweep scope=S1,S2,...): every case swept over them (none: the suite's own sweeps)
  std::vector<std::string> sweeps;
  std::string device = "auto";
  std::string output;        // default graphbench-out/<suite>
  std::string formats = "json,csv,md";
  bool quiet = false;
  std::optional<std::string> data_dir;
  std::optional<int> epochs;
  bool use_train_graph = false;
  bool use_test_graph = false;
  std::string last_batch;
  bool data_on_host = false;
  bool shuffle = false;
  std::uint64_t seed = 1;
  // Sampling overrides (all cases).
  std::optional<int> warmup;
  std::optional<int> min_samples;
  std::optional<int> max_samples;
  std::optional<double> min_time_s;
  std::optional<double> max_time_s;
  std::optional<double> noise;
  std::string inject_slowdown;  // VARIANT=K (test-only)
  std::string l2 = "hot";       // --l2 hot|cold: L2 cache left warm, or flushed before every timed step
  std::string profile = "on";   // --profile on|off: kernel profile after each case's timed samples
  std::string energy = "off";   // --energy on|off: energy per step from NVML's counter after each variant's samples
  std::string trace_dir;        // --trace DIR: Chrome traces of a few steps of each variant
  // Data parallelism (docs/distributed.md).
  std::optional<int> nproc;       // --nproc N: start N ranks of this run on this host
  double dist_timeout_s = 300.0;  // --dist-timeout: the longest any rank waits for the others
  std::optional<int> inject_rank_failure;  // test-only: this rank kills itself after the rendezvous
  // How data-parallel steps average their gradients (all cases; the suite's "grad_*" otherwise).
  std::optional<std::string> grad_dtype;     // --grad-dtype float32|bfloat16
  std::optional<double> grad_bucket_mb;      // --grad-bucket-mb MB
  std::optional<std::string> grad_overlap;   // --grad-overlap on|off
  std::optional<double> grad_chunk_mb;       // --grad-chunk-mb MB (0: no chunks)
  std::optional<std::string> grad_transport;  // --grad-transport collective|copy-engine|auto
  std::vector<std::string> arguments;      // argv[1...] as given: what each rank of --nproc runs
  // --repetitions N: the run repeated N times, each a process of its own, results merged
  // (repetitions_command.cpp). A repetition itself is started with the hidden options below.
  // 0: auto (the default): kDefaultProcesses on a GPU, 1 elsewhere (run_command.cpp).
  int repetitions = 1;
  // Set for the default processes: each repetition samples at most this many rounds per case
  // (unless --max-samples was given); 0: as the suite says.
  int rounds_per_process = 0;
  std::string repetition_dir;  // this process is one repetition: results.json goes here
  int repetition_index = 0;    // its number, from 1
  std::optional<int> inject_repetition_failure;  // test-only: this repetition kills itself
};

struct CompareCliOptions {
  std::string baseline;
  std::string current;
  std::string aa_baseline;  // --aa: a second baseline run, for the run-to-run noise
  std::string json_path;    // --json FILE: the verdicts as JSON
  std::string threshold = "5%";
  std::string accuracy_tolerance = "0.01";
  std::string metric = "time";
  bool allow_missing = false;
  bool fail_on_missing = false;  // deprecated: the default since --allow-missing
  int min_samples = 5;
  std::string calibration;  // --calibration: a file of `graphbench calibrate`
  bool no_calibration = false;  // --no-calibration: ignore a gate-calibration.json beside the baseline
  bool fail_on_counts = false;  // --fail-on-counts: a changed count is a regression
};

struct CalibrateCliOptions {
  std::vector<std::string> runs;
  std::string output;
  std::string alpha = "0.05";
  std::string threshold = "5%";
  std::string slowdown = "10%";
  int min_samples = 5;
  bool overlap_only = false;
};

}  // namespace graphbench::cli
