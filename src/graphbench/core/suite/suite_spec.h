// A suite file (configs/*.json) as plain structs, after full validation. See docs/spec.md.
#pragma once

#include "graphbench/core/record/sweep_point.h"
#include "graphbench/core/workload/capture_scope.h"
#include "graphbench/core/workload/variant.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// How long and how often to sample one case.
struct SamplingSpec {
  int warmup_steps = 10;            // untimed steps per variant before sampling
  int min_samples = 10;             // never stop with fewer samples per variant
  int max_samples = 2000;           // stop here even if the noise target was not met
  double min_time_s = 0.5;          // total measured time per variant before stopping
  double max_time_s = 15.0;         // timeout per case (all variants together)
  double target_rel_noise = 0.01;   // stop once the relative noise of each median is below this
  double min_sample_time_ms = 1.0;  // steps per sample are chosen so one sample lasts this long
};

// Published figures a case reproduces, printed beside the measured ones.
struct PublishedFigures {
  std::optional<double> speedup;   // eager time / variant time, as published
  std::optional<double> eager_us;  // per-step time of the eager baseline, as published
  std::optional<double> variant_us;
  std::string variant;  // which measured variant the figures are compared with
  std::string source;   // where the figures come from
  std::string device;   // the GPU they were measured on
};

// How a data-parallel step averages its gradients over the ranks (docs/distributed.md). A run of
// one process has no all-reduce and ignores it.
struct GradientSyncSpec {
  std::string dtype = "float32";  // "bfloat16": cast, averaged and cast back (DDP's bf16 compression hook)
  double bucket_mb = 25.0;        // the cap of a bucket in MiB (DistributedDataParallel's bucket_cap_mb)
  bool overlap = true;            // each bucket's all-reduce starts while the backward pass goes on
  // Larger gradients are computed and all-reduced in row chunks of at most this many MiB, with the
  // overlap on (0: never).
  double chunk_mb = 0.0;
  // How a bucket's sum travels: "collective" (the process group's all-reduce), "copy-engine"
  // (parallel/communication/peer_exchange.h), "symmetric-memory" (symmetric_all_reduce.h) or "auto".
  std::string transport = "collective";
};

// "sweep": {"batch": [1, 2, 4, ...]} in a case, or --sweep batch=1,2,4: the case is run once
// per value, each point an ordinary case (docs/spec.md, "Sweeps").
struct SweepSpec {
  std::string axis;
  std::vector<std::int64_t> values;  // strictly increasing, each at least 1
  std::string origin;                // "/cases/2/sweep" or "--sweep", for messages
};

// "sweep": {"scope": [...]} or --sweep scope=...: the case is run once per capture scope, each an
// ordinary case named NAME[scope=SCOPE] (docs/sweeps.md); expanded before the integer axis.
struct ScopeSweepSpec {
  std::vector<CaptureScope> scopes;  // in the order written, no two alike
  std::string origin;                // "/cases/2/sweep/scope" or "--sweep", for messages
};

struct CaseSpec {
  std::string name;
  std::string workload;
  std::string kind = "benchmark";  // "benchmark": timed steps; "training": epochs of real training
  std::string mode;                // "inference" or "train"
  std::string dtype = "float32";
  std::vector<Variant> variants;
  SamplingSpec sampling;
  nlohmann::json params = nlohmann::json::object();  // workload parameters, defaults filled in
  GradientSyncSpec gradient_sync;  // "grad_dtype", "grad_bucket_mb", "grad_overlap", "grad_chunk_mb", "grad_transport"
  std::vector<PublishedFigures> published;
  CaptureScope scope;  // what the graph variants capture (docs/scopes.md)
  std::optional<ScopeSweepSpec> scope_sweep;  // before expand_scope_sweeps (core/suite/scope_fields.h)
  std::string scope_group;  // after: the case a scope point compares scopes of; "" otherwise
  std::optional<SweepSpec> sweep;         // before expand_sweeps (core/suite/sweep_fields.h)
  std::optional<SweepPoint> sweep_point;  // after: the point this case is
  std::string json_path;   // "/cases/3", for messages
  std::string suite_path;  // the suite file it came from, for messages
};

struct SuiteSpec {
  std::string path;  // the file it was read from
  std::string name;
  std::string description;
  std::vector<CaseSpec> cases;
};

}  // namespace graphbench
