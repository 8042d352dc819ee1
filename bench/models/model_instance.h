// A model case once loaded: its inputs, feed, initial store, program around the model's op, runners.
#pragma once

#include "models/model_case.h"

#include "graphbench/engine/runner/workload.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace graphbench::bench {

class ModelInstance : public CaseInstance {
 public:
  // A black box: its roofline is what the case says a step must read, or what the loader found.
  StepCost cost() const override { return {read_bytes_, 0.0}; }
  int validation_steps() const override { return train_ ? 3 : 1; }
  double rtol(const Variant&) const override { return tolerance_.rtol; }
  double atol(const Variant&) const override { return tolerance_.atol; }

 protected:
  ModelInstance(const CaseSpec& spec, const CaseContext& context);

  // Reads the case's inputs and draws their tensors (the global generator).
  void read_inputs();
  // Inference: the inputs declared, `call` on them, its outputs "output0", "output1", ...
  using ModelCall = std::function<std::vector<ValueId>(Builder&, const std::vector<ValueId>&)>;
  std::shared_ptr<const Program> build_inference_program(const std::string& name, const ModelCall& call);
  // A runner of program_ by the variant's executor (a failed capture runs eagerly), from its own
  // copy of initial_ so every variant starts from the same state.
  std::unique_ptr<VariantRunner> engine_runner(const Variant& variant, int warmup_steps) const;

  CaseSpec spec_;
  at::Device device_;
  std::uint64_t seed_;
  bool train_;
  Tolerance tolerance_;
  double read_bytes_ = 0.0;
  std::vector<ModelInput> declared_;
  std::vector<at::Tensor> inputs_;
  Feed feed_;
  std::vector<std::string> param_names_;  // mode train: the store entries validation compares
  ModelStore initial_;
  std::shared_ptr<const Program> program_;
};

}  // namespace graphbench::bench
