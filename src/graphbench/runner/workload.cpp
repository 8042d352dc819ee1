#include "graphbench/runner/workload.h"

#include "graphbench/core/errors.h"

namespace graphbench {

double CaseInstance::rtol(const Variant& variant) const {
  return variant.tolerance() == ToleranceClass::kFusedKernels ? 1e-4 : 1e-5;
}

double CaseInstance::atol(const Variant& variant) const {
  return variant.tolerance() == ToleranceClass::kFusedKernels ? 1e-5 : 1e-6;
}

TrainingSummary Workload::train(const CaseSpec& spec, const Variant&, const CaseContext&) const {
  throw EngineError("workload " + spec.workload + " has no training cases");
}

}  // namespace graphbench
