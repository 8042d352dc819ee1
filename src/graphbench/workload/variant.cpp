#include "graphbench/workload/variant.h"

#include <stdexcept>

namespace graphbench {

Variant::Variant(std::string name, Execution execution, StepSource source, ToleranceClass tolerance, std::string help)
    : name_(std::move(name)), execution_(execution), source_(source), tolerance_(tolerance), help_(std::move(help)) {}

const std::vector<Variant>& Variant::all() {
  using E = Execution;
  using S = StepSource;
  using T = ToleranceClass;
  static const std::vector<Variant> variants = {
      {"eager", E::kEager, S::kEngine, T::kSameKernels,
       "the engine, ops one by one with fresh allocations (what ordinary LibTorch code does)"},
      {"static", E::kStatic, S::kEngine, T::kSameKernels,
       "the engine on fixed buffers and aliases, ops one by one, no capture (allocation cost isolated)"},
      {"graph", E::kGraph, S::kEngine, T::kSameKernels,
       "the engine's captured CUDA graph, replayed (inputs copied into fixed buffers)"},
      {"jit", E::kEager, S::kScript, T::kFusedKernels,
       "TorchScript compiled from source (its fuser merges elementwise ops), run eagerly"},
      {"jit+graph", E::kGraph, S::kScript, T::kFusedKernels, "the TorchScript function captured in a CUDA graph"},
      {"reference", E::kEager, S::kReference, T::kIndependentCode,
       "plain LibTorch written as the tutorial writes it (modules, torch::optim)"},
      {"reference+graph", E::kGraph, S::kReference, T::kIndependentCode,
       "the same, captured by hand with at::cuda::CUDAGraph as the tutorial does"},
  };
  return variants;
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

}  // namespace graphbench
