// A VariantRunner over the engine: one program, one executor, its own model store and feed.
#pragma once

#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/runner/workload.h"

#include <memory>
#include <string>
#include <vector>

namespace graphbench {

struct EngineRunnerConfig {
  std::shared_ptr<const Program> program;
  ExecutorKind executor = ExecutorKind::kEager;
  Policy policy = Policy::inference();
  ExecutorOptions options;
  ModelStore store;  // this runner's own copy (clone the case's initial store)
  Feed feed;         // fed on every step
  // Store entries observed after each step, after the program's outputs (training: the params).
  std::vector<std::string> observed_store_entries;
  // kInPlace: after the first step the executor's fixed input buffers are fed, so a step copies nothing.
  InputMethod input_method = InputMethod::kFed;
};

class EngineRunner final : public VariantRunner {
 public:
  explicit EngineRunner(EngineRunnerConfig config);
  void step() override;
  std::vector<at::Tensor> observe() override;
  std::map<std::string, std::int64_t> counters() const override;
  std::optional<double> capture_ms() const override;
  std::optional<double> warmup_ms() const override;
  std::vector<GraphFacts> graphs() const override;
  std::optional<std::int64_t> graphs_per_step() const override;
  std::vector<std::string> capture_failures() const override;

 private:
  std::shared_ptr<const Program> program_;
  ModelStore store_;
  Engine engine_;
  std::unique_ptr<Executor> executor_;
  Feed feed_;
  std::vector<std::string> observed_;
  bool in_place_ = false;  // switch to the bound buffers after the first step
};

}  // namespace graphbench
