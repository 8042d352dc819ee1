#include "graphbench/runner/suite_runner.h"

#include "graphbench/core/errors.h"
#include "graphbench/runner/benchmark_case.h"
#include "graphbench/runner/case_records.h"
#include "graphbench/runner/training_case.h"

#include <fmt/format.h>

namespace graphbench {

void preflight_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads) {
  for (const CaseSpec& spec : suite.cases) {
    if (const Workload* workload = workloads.find(spec.workload)) workload->preflight(spec);
  }
}

SuiteOutcome run_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads,
                       const CaseContext& suite_context, Environment environment, std::ostream* log,
                       const CaseRunFn& run_case) {
  preflight_suite(suite, workloads);
  CaseContext context = suite_context;
  context.case_names.clear();
  for (const CaseSpec& spec : suite.cases) context.case_names.push_back(spec.name);
  SuiteOutcome outcome;
  outcome.report.environment = std::move(environment);
  std::size_t index = 0;
  for (const CaseSpec& spec : suite.cases) {
    ++index;
    if (log != nullptr) *log << fmt::format("[{}/{}] {} ({}, {})", index, suite.cases.size(), spec.name, spec.workload, spec.kind) << std::endl;
    const Workload* workload = workloads.find(spec.workload);
    std::vector<ResultRecord> records;
    try {
      if (workload == nullptr) throw InputError(fmt::format("{}: {}: no workload named {}", suite.path, spec.json_path, spec.workload));
      if (run_case) {
        records = run_case(*workload, spec, outcome.report.environment);
      } else {
        records = spec.kind == "training" ? run_training_case(*workload, spec, context, log)
                                          : run_benchmark_case(*workload, spec, context, outcome.report.environment, log);
      }
    } catch (const InputError& e) {
      outcome.bad_input = true;
      records.clear();
      for (const auto& variant : spec.variants) {
        ResultRecord r = make_record(spec, variant, context);
        mark_failed(r, e.what());
        records.push_back(std::move(r));
      }
      if (log != nullptr) *log << "  " << spec.name << ": " << e.what() << std::endl;
    }
    for (auto& r : records) {
      if (r.status == RecordStatus::kFailed) {
        outcome.any_failed = true;
        if (log != nullptr) *log << "  " << r.case_name << "/" << r.variant << " FAILED: " << r.reason << std::endl;
      }
      outcome.report.records.push_back(std::move(r));
    }
  }
  return outcome;
}

}  // namespace graphbench
