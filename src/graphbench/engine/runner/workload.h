// A workload (bench/): for each case the runner asks it for a CaseInstance, then one VariantRunner
// per variant, validates each against eager and times them side by side.
#pragma once

#include "graphbench/core/record/result_record.h"
#include "graphbench/core/report/unpack_space.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"
#include "graphbench/core/workload/variant.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace graphbench {

// What the command line adds to every case.
struct CaseContext {
  at::Device device = at::kCPU;
  std::optional<std::string> data_dir;  // --data-dir (MNIST-format data)
  std::ostream* out = nullptr;          // where training prints the tutorial's lines
  bool quiet = false;
  std::ostream* progress = nullptr;  // a terminal for progress lines, or null (pipes and logs get none)
  std::uint64_t seed = 0;
  // Test-only: every step of one variant run `slowdown_factor` times (to check that compare catches it).
  std::string slowdown_variant;
  int slowdown_factor = 0;
  bool cold_l2 = false;  // --l2 cold: flush the L2 cache before every timed step (CUDA)
  // --max-time given: its limit cuts validation too. A limit from the suite bounds warm-up and
  // sampling only: validation is never cut short without being asked.
  bool time_limit_cuts_validation = false;
  bool profile = true;   // --profile off: no kernel profile after the timed samples
  bool energy = false;   // --energy on: energy per step after the timed samples (CUDA; engine/runner/case_timing.h)
  std::string trace_dir;  // --trace DIR: a trace of a few steps of each variant (engine/runner/case_trace.h)
  // Training cases (kind "training"): overrides of the case's parameters from the command line.
  std::optional<int> epochs;
  std::optional<bool> use_test_graph;
  std::string last_batch;  // "", "skip" or "capture"
  std::optional<bool> data_on_host;  // --data-on-host: batches copied from host memory
  std::optional<bool> shuffle;       // --shuffle: a seeded permutation of the data per epoch
  std::vector<std::string> case_names;  // the suite's cases, for the note before a long one
  // Under a limit for the whole case: one training variant's share and where its plan is said;
  // unset, the epochs run whole (core/sampling/case_budget.h, plan_training).
  struct TrainingLimit {
    double seconds = 0.0;
    int variants = 1;  // how many variants share the case's limit
    std::function<void(const std::string&)> say;
  };
  std::optional<TrainingLimit> training_limit;
};

// Bytes a step must move at least and its floating-point operations: the roofline of a case.
struct StepCost {
  double bytes = 0.0;
  double flops = 0.0;
};

// One variant of one case, ready to step.
class VariantRunner {
 public:
  virtual ~VariantRunner() = default;
  // One timed unit: one inference call or one training step (inputs copied in as the variant does).
  virtual void step() = 0;
  // What validation compares against eager after a step (copies: safe to keep).
  virtual std::vector<at::Tensor> observe() = 0;
  virtual std::map<std::string, std::int64_t> counters() const { return {}; }
  virtual std::optional<double> capture_ms() const { return std::nullopt; }
  // The warm-up steps run before that capture (graph variants), wall time.
  virtual std::optional<double> warmup_ms() const { return std::nullopt; }
  // The CUDA graphs it captured (graph variants), in capture order.
  virtual std::vector<GraphFacts> graphs() const { return {}; }
  // Graphs one step replays (Executor::graphs_per_step); none where nothing is captured.
  virtual std::optional<std::int64_t> graphs_per_step() const { return std::nullopt; }
  // Why captures failed when the variant fell back to running eagerly (empty: none did).
  virtual std::vector<std::string> capture_failures() const { return {}; }
};

class CaseInstance {
 public:
  virtual ~CaseInstance() = default;
  // `validation`: dropout off, so that outputs are comparable with eager's.
  virtual std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool validation) = 0;
  // Why `variant` cannot run in this build or on this device, or ""; asked before any runner is made.
  virtual std::string skip_reason(const Variant& /*variant*/) const { return ""; }
  // What setting the case up found that each of its records should say (a warning each).
  virtual std::vector<std::string> setup_notes() const { return {}; }
  virtual StepCost cost() const = 0;
  // Steps validated against eager (training: several, so that accumulation is compared too).
  virtual int validation_steps() const { return 1; }
  // Eager steps thrown away before validation (TorchScript's profiling executor optimises after its first calls).
  virtual int settle_steps() const { return 0; }
  // Random ops (dropout) this case can turn off, for runners made after set_randomness(false).
  virtual bool has_randomness() const { return false; }
  virtual void set_randomness(bool /*on*/) {}
  virtual std::string randomness_description() const { return "its random ops"; }
  // Tolerances of the comparison with eager; the defaults suit float32 by the variant's tolerance class.
  virtual double rtol(const Variant& variant) const;
  virtual double atol(const Variant& variant) const;
  // Kernels one step of `variant` must launch, where known (GELU's jit: one fused kernel); a variant
  // that runs another number is not what it claims to be and fails.
  virtual std::optional<int> expected_kernels_per_step(const Variant&) const { return std::nullopt; }
};

class DataParallelCase;
struct DataParallelSetup;
struct DataParallelTraining;

class Workload {
 public:
  virtual ~Workload() = default;
  virtual const WorkloadDescriptor& descriptor() const = 0;
  // Checks what a case names outside its suite file (a model file) before any case runs; InputError.
  virtual void preflight(const CaseSpec& /*spec*/) const {}
  // What a case unpacks on disk (a model package), for the room check before the run
  // (core/report/unpack_space.h); called before preflight, which names a missing file.
  virtual std::vector<UnpackNeed> unpack_needs(const CaseSpec& /*spec*/) const { return {}; }
  // Gives back what it keeps between cases (a loaded package), after its last case in a row.
  virtual void release_kept() const {}
  // A benchmark case (kind "benchmark").
  virtual std::unique_ptr<CaseInstance> instantiate(const CaseSpec& spec, const CaseContext& context) const = 0;
  // A training case (kind "training"), printing as the tutorial does; the default throws.
  virtual TrainingSummary train(const CaseSpec& spec, const Variant& variant, const CaseContext& context) const;
  // The case run data-parallel (engine/runner/data_parallel.h); nullptr: no such form (the default).
  virtual std::unique_ptr<DataParallelCase> instantiate_data_parallel(const CaseSpec& spec, const CaseContext& context,
                                                                      const DataParallelSetup& setup) const;
  // A training case run data-parallel; nullptr: no such form (the default).
  virtual std::unique_ptr<DataParallelTraining> train_data_parallel(const CaseSpec& spec, const Variant& variant,
                                                                    const CaseContext& context,
                                                                    const DataParallelSetup& setup) const;
};

}  // namespace graphbench
