#include "graphbench/engine/runner/workload.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/runner/data_parallel.h"

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

std::unique_ptr<DataParallelCase> Workload::instantiate_data_parallel(const CaseSpec&, const CaseContext&,
                                                                     const DataParallelSetup&) const {
  return nullptr;
}

std::unique_ptr<DataParallelTraining> Workload::train_data_parallel(const CaseSpec&, const Variant&,
                                                                   const CaseContext&, const DataParallelSetup&) const {
  return nullptr;
}

}  // namespace graphbench
