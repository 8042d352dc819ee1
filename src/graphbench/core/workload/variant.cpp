#include "graphbench/core/workload/variant.h"

#include <algorithm>
#include <stdexcept>

namespace graphbench {

Variant::Variant(std::string name, Execution execution, StepSource source, InputMethod input_method,
                 ToleranceClass tolerance, std::string help)
    : name_(std::move(name)),
      execution_(execution),
      source_(source),
      input_method_(input_method),
      tolerance_(tolerance),
      help_(std::move(help)) {}

const std::vector<Variant>& Variant::all() {
  using E = Execution;
  using S = StepSource;
  using I = InputMethod;
  using T = ToleranceClass;
  static const std::vector<Variant> variants = {
      {"eager", E::kEager, S::kEngine, I::kFed, T::kSameKernels,
       "the engine, ops one by one with fresh allocations (what ordinary LibTorch code does)"},
      {"static", E::kStatic, S::kEngine, I::kFed, T::kSameKernels,
       "the engine on fixed buffers and aliases, ops one by one, no capture (allocation cost isolated)"},
      {"graph", E::kGraph, S::kEngine, I::kFed, T::kSameKernels,
       "the engine's captured CUDA graph; every step copies its inputs into the fixed buffers, then replays"},
      {"graph:replay", E::kGraph, S::kEngine, I::kInPlace, T::kSameKernels,
       "the engine's captured CUDA graph replayed alone, inputs already in its fixed buffers"},
      {"jit", E::kEager, S::kScript, I::kFed, T::kFusedKernels,
       "TorchScript compiled from source (its fuser merges elementwise ops), run eagerly"},
      {"jit+graph", E::kGraph, S::kScript, I::kFed, T::kFusedKernels,
       "the TorchScript function captured in a CUDA graph; inputs copied in, then replayed"},
      {"jit+graph:replay", E::kGraph, S::kScript, I::kInPlace, T::kFusedKernels,
       "the TorchScript function's graph replayed alone, inputs already in place"},
      {"native", E::kEager, S::kNative, I::kFed, T::kFusedKernels,
       "the step as one native ATen kernel (GELU: at::gelu), run eagerly: the floor"},
      {"native+graph", E::kGraph, S::kNative, I::kFed, T::kFusedKernels,
       "the native kernel captured in a CUDA graph; inputs copied in, then replayed"},
      {"native+graph:replay", E::kGraph, S::kNative, I::kInPlace, T::kFusedKernels,
       "the native kernel's graph replayed alone, inputs already in place"},
      {"reference", E::kEager, S::kReference, I::kFed, T::kIndependentCode,
       "plain LibTorch written as the tutorial writes it (modules, torch::optim)"},
      {"reference+graph", E::kGraph, S::kReference, I::kFed, T::kIndependentCode,
       "the same, captured by hand with at::cuda::CUDAGraph as the tutorial does; inputs copied in, then replayed"},
      {"reference+graph:replay", E::kGraph, S::kReference, I::kInPlace, T::kIndependentCode,
       "the hand-captured graph replayed alone: a bare CUDAGraph::replay(), inputs already in place"},
      {"conditional", E::kGraph, S::kConditional, I::kFed, T::kSameKernels,
       "one CUDA graph whose data-dependent branches and early exits are conditional nodes (CUDA 12.4+): the "
       "device decides, no host sync in a step; inputs copied in, then replayed"},
      {"conditional:replay", E::kGraph, S::kConditional, I::kInPlace, T::kSameKernels,
       "the graph of conditional nodes replayed alone, inputs already in place"},
  };
  return variants;
}

StepMethod Variant::method() const {
  switch (execution_) {
    case Execution::kEager: return StepMethod::kRun;
    case Execution::kStatic: return StepMethod::kFeedRun;
    case Execution::kGraph: return input_method_ == InputMethod::kInPlace ? StepMethod::kReplay : StepMethod::kFeedReplay;
  }
  return StepMethod::kRun;
}

const Variant* Variant::in_place_form() const {
  if (!needs_cuda_graph()) return nullptr;
  for (const Variant& v : all()) {
    if (v.execution_ == execution_ && v.source_ == source_ && v.inputs_in_place()) return &v;
  }
  return nullptr;
}

const Variant* Variant::find(const std::string& name) {
  for (const Variant& v : all()) {
    if (v.name() == name) return &v;
  }
  return nullptr;
}

const Variant& Variant::named(const std::string& name) {
  if (const Variant* v = find(name)) return *v;
  std::string known;
  for (const Variant& v : all()) known += (known.empty() ? "" : ", ") + v.name();
  throw std::invalid_argument("unknown variant \"" + name + "\" (known: " + known + ")");
}

std::vector<std::string> Variant::names() { return variant_names(all()); }

std::vector<std::string> variant_names(const std::vector<Variant>& variants) {
  std::vector<std::string> names;
  names.reserve(variants.size());
  for (const Variant& v : variants) names.push_back(v.name());
  return names;
}

std::vector<Variant> with_replay_forms(const std::vector<Variant>& variants) {
  std::vector<Variant> out;
  for (const Variant& v : variants) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    if (!v.needs_cuda_graph() || v.inputs_in_place()) continue;
    const Variant* replay = v.in_place_form();
    if (replay != nullptr && std::find(variants.begin(), variants.end(), *replay) == variants.end()) {
      out.push_back(*replay);
    }
  }
  return out;
}

std::vector<Variant> branching_variants() {
  return {Variant::named("eager"), Variant::named("graph"), Variant::named("conditional"),
          Variant::named("conditional:replay")};
}

}  // namespace graphbench
