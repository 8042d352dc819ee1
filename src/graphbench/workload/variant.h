// A variant: one way of running a case's step. Its name is what suites, the command line and result
// files use; everything the code needs to know about a variant is a field of this value, so no code
// compares variant names.
//
//   name             execution  source     what runs
//   eager            eager      engine     the engine's ops one by one, fresh allocations
//   static           static     engine     the engine's ops on fixed buffers and aliases, no capture
//   graph            graph      engine     the engine's captured CUDA graph, replayed
//   jit              eager      script     the step compiled by TorchScript (fused kernels)
//   jit+graph        graph      script     the TorchScript step captured in a CUDA graph
//   reference        eager      reference  plain LibTorch written as the tutorial writes it
//   reference+graph  graph      reference  the same, captured by hand with at::cuda::CUDAGraph
#pragma once

#include <string>
#include <vector>

namespace graphbench {

// How the steps run.
enum class Execution { kEager, kStatic, kGraph };

// What the step is built from.
enum class StepSource {
  kEngine,     // the workload's program of engine ops
  kScript,     // the same computation compiled by TorchScript (its fuser merges kernels)
  kReference,  // plain LibTorch code, written independently of the engine
};

// How closely the variant must match eager in validation: the same kernels in the same order give
// the same bits up to reduction order; fused kernels and independent code round differently.
enum class ToleranceClass { kSameKernels, kFusedKernels, kIndependentCode };

class Variant {
 public:
  // Every variant, in the order reports list them.
  static const std::vector<Variant>& all();
  // The variant called `name`, or nullptr.
  static const Variant* find(const std::string& name);
  // The variant called `name`; std::invalid_argument naming the known ones if there is none.
  static const Variant& named(const std::string& name);
  // The names of all(), for messages and help.
  static std::vector<std::string> names();

  const std::string& name() const { return name_; }
  Execution execution() const { return execution_; }
  StepSource source() const { return source_; }
  ToleranceClass tolerance() const { return tolerance_; }
  const std::string& help() const { return help_; }

  bool needs_cuda_graph() const { return execution_ == Execution::kGraph; }
  bool is_reference() const { return source_ == StepSource::kReference; }
  bool is_script() const { return source_ == StepSource::kScript; }
  // The baseline every other variant is validated against and compared with.
  bool is_eager_baseline() const { return execution_ == Execution::kEager && source_ == StepSource::kEngine; }

  bool operator==(const Variant& other) const { return name_ == other.name_; }
  bool operator!=(const Variant& other) const { return !(*this == other); }

 private:
  Variant(std::string name, Execution execution, StepSource source, ToleranceClass tolerance, std::string help);

  std::string name_;
  Execution execution_;
  StepSource source_;
  ToleranceClass tolerance_;
  std::string help_;
};

// The names of `variants`, in order.
std::vector<std::string> variant_names(const std::vector<Variant>& variants);

}  // namespace graphbench
