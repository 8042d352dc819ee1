#include "graphbench/runner/workload.h"

#include "graphbench/core/errors.h"

namespace graphbench {

double CaseInstance::rtol(const std::string& variant) const {
  return variant.rfind("jit", 0) == 0 ? 1e-4 : 1e-5;
}

double CaseInstance::atol(const std::string& variant) const {
  return variant.rfind("jit", 0) == 0 ? 1e-5 : 1e-6;
}

TrainingSummary Workload::train(const CaseSpec& spec, const std::string&, const CaseContext&) const {
  throw EngineError("workload " + spec.workload + " has no training cases");
}

}  // namespace graphbench
