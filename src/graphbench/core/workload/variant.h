// A variant: one way of running a case's step (eager, static, graph, graph:replay, jit, native,
// reference and conditional, with their +graph and :replay forms). Its name is what suites, the
// command line and result files use; everything the code needs to know of a variant is a field of
// this value (Variant::all() lists them with what each runs), so no code compares variant names.
// The ":replay" form (InputMethod::kInPlace) exists for graph variants only; a plain graph variant
// keeps its meaning of earlier result files: inputs copied in, then replayed.
#pragma once

#include "graphbench/core/record/record_kinds.h"

#include <string>
#include <vector>

namespace graphbench {

// How the steps run; also which executor runs them (engine/exec/executor.h).
enum class Execution { kEager, kStatic, kGraph };
template <> struct KindNames<Execution> { static constexpr const char* names[] = {"eager", "static", "graph"}; };

// What the step is built from.
enum class StepSource {
  kEngine,     // the workload's program of engine ops
  kScript,     // the same computation compiled by TorchScript (its fuser merges kernels)
  kNative,     // the computation as one native ATen op (GELU: at::gelu, one kernel)
  kReference,  // plain LibTorch code, written independently of the engine
  kConditional,  // one graph whose data-dependent branches are conditional nodes (engine/exec/conditional_graph.h)
};

// How a step gets its inputs.
enum class InputMethod {
  kFed,      // every step is handed its inputs (graph and static variants copy them into fixed buffers)
  kInPlace,  // the inputs are already in the graph's fixed buffers: a step is the replay alone
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
  InputMethod input_method() const { return input_method_; }
  ToleranceClass tolerance() const { return tolerance_; }
  const std::string& help() const { return help_; }

  // What one timed step does, for every table: "run" (eager execution: the fed tensors are used
  // where they are), "feed+run" (static), "feed+replay" or "replay" (graph).
  StepMethod method() const;

  // The ":replay" form of a graph variant (itself for one already in place); nullptr otherwise.
  const Variant* in_place_form() const;

  bool needs_cuda_graph() const { return execution_ == Execution::kGraph; }
  bool is_reference() const { return source_ == StepSource::kReference; }
  bool is_script() const { return source_ == StepSource::kScript; }
  bool is_native() const { return source_ == StepSource::kNative; }
  bool inputs_in_place() const { return input_method_ == InputMethod::kInPlace; }
  // The baseline every other variant is validated against and compared with.
  bool is_eager_baseline() const { return execution_ == Execution::kEager && source_ == StepSource::kEngine; }

  bool operator==(const Variant& other) const { return name_ == other.name_; }
  bool operator!=(const Variant& other) const { return !(*this == other); }

 private:
  Variant(std::string name, Execution execution, StepSource source, InputMethod input_method,
          ToleranceClass tolerance, std::string help);

  std::string name_;
  Execution execution_;
  StepSource source_;
  InputMethod input_method_;
  ToleranceClass tolerance_;
  std::string help_;
};

// The names of `variants`, in order.
std::vector<std::string> variant_names(const std::vector<Variant>& variants);

// `variants` with, after every graph variant that feeds its inputs, its ":replay" form (when not
// listed already): what a workload declares so that both methods are timed side by side.
std::vector<Variant> with_replay_forms(const std::vector<Variant>& variants);

// What a workload with data-dependent branches runs: eager, a graph per piece with the host
// deciding between them, and one graph of conditional nodes (then its replay form).
std::vector<Variant> branching_variants();

}  // namespace graphbench
