// A benchmark workload's descriptor and cases, registered in one line (one with more derives):
//   GRAPHBENCH_REGISTER_CASE_WORKLOAD(GeluCase, gelu_descriptor, bench::Grad::kOff);
#pragma once

#include "catalog/workloads.h"

#include "graphbench/engine/runner/workload.h"
#include "graphbench/engine/runner/workload_registry.h"

#include <ATen/core/grad_mode.h>

#include <memory>
#include <optional>
#include <utility>

namespace graphbench::bench {

// Whether cases are built with autograd on (training programs record their graph) or off.
enum class Grad { kOn, kOff };

template <typename Case>
class CaseWorkload : public Workload {
 public:
  CaseWorkload(WorkloadDescriptor descriptor, Grad grad) : descriptor_(std::move(descriptor)), grad_(grad) {}

  const WorkloadDescriptor& descriptor() const override { return descriptor_; }

  std::unique_ptr<CaseInstance> instantiate(const CaseSpec& spec, const CaseContext& context) const override {
    std::optional<at::NoGradGuard> no_grad;
    if (grad_ == Grad::kOff) no_grad.emplace();
    return std::make_unique<Case>(spec, context);
  }

 private:
  WorkloadDescriptor descriptor_;
  Grad grad_;
};

}  // namespace graphbench::bench

// Registers CaseWorkload<Case> (_AS: a class derived from it) with `describe()`'s descriptor.
#define GRAPHBENCH_REGISTER_CASE_WORKLOAD_AS(WorkloadClass, describe, grad)                 \
  static std::unique_ptr<::graphbench::Workload> make_##describe() {                            \
    return std::make_unique<WorkloadClass>(describe(), grad);                               \
  }                                                                                         \
  GRAPHBENCH_REGISTER_WORKLOAD(make_##describe)
#define GRAPHBENCH_REGISTER_CASE_WORKLOAD(Case, describe, grad) \
  GRAPHBENCH_REGISTER_CASE_WORKLOAD_AS(::graphbench::bench::CaseWorkload<Case>, describe, grad)
