// What the training-step cases (linear_dropout, mnist) share: a step's rows, timed and validation
// programs from one initial store, and the tutorial's code (reference variants, one process only).
#pragma once

#include "common/case_workload.h"

#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/exec/policy.h"
#include "graphbench/engine/plan/program.h"
#include "graphbench/engine/runner/data_parallel.h"
#include "graphbench/engine/runner/reference_runner.h"

#include <torch/optim/sgd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace graphbench::bench {

class TrainingStepCase : public DataParallelCase {
 public:
  // A reference variant: the case's reference step, in one process (else EngineError); an engine
  // variant: the validation or the timed program from a copy of the initial params, fed feed_.
  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool validation) override;
  StepCost cost() const override { return cost_; }

  // Data-parallel: observe() is the loss, then the params.
  std::size_t first_param_observation() const override { return 1; }
  std::int64_t samples_per_step() const override { return rows_; }
  ModelStore& initial_params() override { return initial_; }

 protected:
  // `batch`: the case's rows per rank.
  TrainingStepCase(const CaseSpec& spec, const CaseContext& context, DataParallelSetup setup, std::int64_t batch);

  // The tutorial's step for a reference variant (never data-parallel); `validation`: dropout off.
  virtual ReferenceStep make_reference(bool validation) = 0;
  // Where this instance's rows start in the global batch: 0 for the whole batch, else its shard's.
  std::int64_t first_row() const;

  at::Device device_;
  CaptureScope scope_;
  std::int64_t batch_;
  DataParallelSetup setup_;
  std::int64_t rows_;  // rows per step: the batch, or the whole global batch
  ModelStore initial_;
  std::shared_ptr<const Program> timed_program_;
  std::shared_ptr<const Program> validation_program_;
  Policy policy_ = Policy::train();
  Feed feed_;                              // fed on every engine step
  std::vector<std::string> observed_;      // store entries observed after the outputs (the params)
  StepCost cost_;
};

// CaseWorkload with the case's data-parallel form, in mode train (others have no gradients to all-reduce).
template <typename Case>
class TrainingStepWorkload : public CaseWorkload<Case> {
 public:
  using CaseWorkload<Case>::CaseWorkload;
  std::unique_ptr<DataParallelCase> instantiate_data_parallel(const CaseSpec& spec, const CaseContext& context,
                                                              const DataParallelSetup& setup) const override {
    if (spec.mode != "train") return nullptr;
    return std::make_unique<Case>(spec, context, setup);
  }
};

// Zeroes the momentum buffers of `optimizer` (those it made): a reference step's undo_warmup.
void zero_momentum_buffers(torch::optim::SGD& optimizer);

}  // namespace graphbench::bench
