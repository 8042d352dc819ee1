#include "graphbench/engine/runner/suite_runner.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/interrupt.h"
#include "graphbench/engine/runner/benchmark_case.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/sweep_memory.h"
#include "graphbench/engine/runner/training_case.h"

#include <fmt/format.h>

#include <set>

namespace graphbench {

namespace {

// Every variant of a case that could not start, failed with the reason.
std::vector<ResultRecord> failed_records(const CaseSpec& spec, const CaseContext& context, const std::string& reason) {
  std::vector<ResultRecord> records = make_records(spec, context);
  for (ResultRecord& r : records) mark_failed(r, reason);
  return records;
}

// The cases of the sweep whose last point is case `index`, else none.
std::vector<const CaseSpec*> sweep_ending_at(const SuiteSpec& suite, std::size_t index) {
  const CaseSpec& spec = suite.cases[index];
  if (!spec.sweep_point) return {};
  const auto same_group = [&](const CaseSpec& c) { return c.sweep_point && c.sweep_point->group == spec.sweep_point->group; };
  if (index + 1 < suite.cases.size() && same_group(suite.cases[index + 1])) return {};
  std::vector<const CaseSpec*> points;
  for (const CaseSpec& c : suite.cases) {
    if (same_group(c)) points.push_back(&c);
  }
  return points;
}

void mark_interrupted(SuiteOutcome& outcome) {
  outcome.report.interrupted = true;
  outcome.report.interrupted_by = signal_name(stop_signal());
}

// What every workload of the suite keeps between its cases, given back (each workload once).
void release_kept(const SuiteSpec& suite, const WorkloadRegistry& workloads) {
  std::set<std::string> released;
  for (const CaseSpec& spec : suite.cases) {
    if (!released.insert(spec.workload).second) continue;
    if (const Workload* workload = workloads.find(spec.workload)) workload->release_kept();
  }
}

}  // namespace

void preflight_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads) {
  for (const CaseSpec& spec : suite.cases) {
    if (const Workload* workload = workloads.find(spec.workload)) workload->preflight(spec);
  }
}

SuiteOutcome run_suite(const SuiteSpec& suite, const WorkloadRegistry& workloads, const CaseContext& suite_context,
                       Environment environment, std::ostream* log, std::ostream* errors, const CaseRunFn& run_case) {
  preflight_suite(suite, workloads);
  CaseContext context = suite_context;
  context.case_names.clear();
  for (const CaseSpec& spec : suite.cases) context.case_names.push_back(spec.name);
  SuiteOutcome outcome;
  outcome.report.environment = std::move(environment);
  std::size_t index = 0;
  for (const CaseSpec& spec : suite.cases) {
    if (stop_requested()) {
      mark_interrupted(outcome);
      break;
    }
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
      if (!stop_requested()) {
        outcome.bad_input = true;
        records = failed_records(spec, context, e.what());
      }
    }
    if (stop_requested()) {
      // The case was cut short (or finished as the signal came): its variants are left out.
      mark_interrupted(outcome);
      if (errors != nullptr) {
        *errors << fmt::format("graphbench: {}: case {} did not finish; it is left out of the results",
                               outcome.report.interrupted_by, spec.name)
                << std::endl;
      }
      break;
    }
    for (auto& r : records) {
      if (r.status == RecordStatus::kFailed) {
        outcome.any_failed = true;
        if (errors != nullptr) *errors << "graphbench: " << r.case_name << "/" << r.variant << " FAILED: " << r.reason << std::endl;
      }
      outcome.report.records.push_back(std::move(r));
    }
    const auto sweep = sweep_ending_at(suite, index - 1);
    if (!sweep.empty() && workload != nullptr && !run_case && context.device.is_cuda()) {
      if (log != nullptr) *log << fmt::format("  {}: the recommended graphs in one shared pool", sweep.front()->sweep_point->group) << std::endl;
      for (auto& m : measure_shared_pools(*workload, sweep, outcome.report.records, context)) {
        outcome.report.shared_pools.push_back(std::move(m));
      }
    }
    const bool workload_changes = index == suite.cases.size() || suite.cases[index].workload != spec.workload;
    if (workload != nullptr && workload_changes) workload->release_kept();
  }
  release_kept(suite, workloads);  // also when the run stopped early
  return outcome;
}

}  // namespace graphbench
