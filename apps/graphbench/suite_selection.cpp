#include "suite_selection.h"

#include "catalog/workloads.h"
#include "run_command.h"
#include "run_option_checks.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/suite/case_filter.h"
#include "graphbench/core/suite/scope_fields.h"
#include "graphbench/core/suite/suite_parser.h"
#include "graphbench/core/suite/sweep_fields.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

namespace graphbench::cli {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

void apply_case_filter(SuiteSpec& suite, const std::vector<std::string>& values) {
  if (values.empty()) return;
  const auto wanted = case_names_of(values);
  for (const auto& name : wanted) {
    const bool known = std::any_of(suite.cases.begin(), suite.cases.end(), [&](const CaseSpec& c) { return c.name == name; });
    if (!known) {
      std::vector<std::string> names;
      for (const auto& c : suite.cases) names.push_back(c.name);
      throw InputError(fmt::format("--cases: suite {} has no case \"{}\" (cases: {}; a comma separates names, \\, is a "
                                   "comma inside one)",
                                   suite.path, name, fmt::join(names, ", ")));
    }
  }
  suite.cases.erase(std::remove_if(suite.cases.begin(), suite.cases.end(),
                                   [&](const CaseSpec& c) { return !contains(wanted, c.name); }),
                    suite.cases.end());
}

void apply_variant_filter(SuiteSpec& suite, const std::optional<std::string>& list,
                          const std::vector<WorkloadDescriptor>& workloads, std::ostream* notes) {
  if (!list) return;
  const auto wanted = variant_names_of(*list);
  std::vector<CaseSpec> kept;
  for (auto& c : suite.cases) {
    // The suite parser refused a case of an unknown workload.
    const auto& supported = find_workload(workloads, c.workload)->variants;
    std::vector<Variant> variants;
    for (const auto& v : wanted) {
      const Variant& variant = Variant::named(v);
      // A training run feeds every batch: the ":replay" forms are for timed steps only.
      if (c.kind == "training" && variant.inputs_in_place()) continue;
      if (std::find(supported.begin(), supported.end(), variant) != supported.end()) variants.push_back(variant);
    }
    if (variants.empty()) {
      if (notes != nullptr) *notes << fmt::format("note: case {} has none of the variants asked for; left out\n", c.name);
      continue;
    }
    c.variants = variants;
    kept.push_back(std::move(c));
  }
  suite.cases = std::move(kept);
}

// The suite file of --suite (--workload) NAME: <dir>/NAME.json, trying --configs-dir, ./configs and the
// source tree's configs/ in turn; InputError saying where it looked.
std::string suite_path_for_workload(const std::string& workload, const std::string& configs_dir,
                                    const std::vector<WorkloadDescriptor>& workloads) {
  std::vector<std::string> tried;
  for (const auto& dir : configs_search_dirs(configs_dir)) {
    const auto path = std::filesystem::path(dir) / (workload + ".json");
    if (std::filesystem::is_regular_file(path)) return path.string();
    tried.push_back(path.string());
  }
  // A workload's name is not a suite's: say which suites hold its cases.
  std::string hint = "see `graphbench list` for the suites and their cases";
  if (find_workload(workloads, workload) != nullptr) {
    const auto holders = suites_with_workload(configs_search_dirs(configs_dir), workload);
    hint = holders.empty() ? fmt::format("{} is a workload, not a suite: no suite here has a case of it; write one "
                                         "(docs/spec.md) and run it with run --config FILE",
                                         workload)
                           : fmt::format("{} is a workload, not a suite; its cases are in {}", workload,
                                         fmt::join(holders, "; "));
  }
  throw InputError(fmt::format("--suite {}: no suite file {} ({})", workload, fmt::join(tried, " or "), hint));
}

}  // namespace

SelectedSuite select_suite(const RunOptions& o, const std::vector<WorkloadDescriptor>& workloads, std::ostream* notes) {
  SelectedSuite selected;
  selected.path = !o.config.empty() ? o.config : suite_path_for_workload(o.workload, o.configs_dir, workloads);
  selected.formats = parse_output_formats(o.formats);
  selected.suite = load_suite_spec(selected.path, workloads);
  SuiteSpec& suite = selected.suite;
  apply_case_filter(suite, o.cases);
  if (!o.filter.empty()) apply_case_pattern(suite, o.filter);
  apply_sweep_options(suite, o.sweeps, workloads);
  expand_scope_sweeps(suite);  // first: a scope's point keeps the case's integer sweep, expanded next
  expand_sweeps(suite, workloads);
  if (o.use_train_graph) {
    for (auto& c : suite.cases) {
      if (c.kind == "training") c.variants = {Variant::named("graph")};
    }
  }
  apply_variant_filter(suite, o.variants, workloads, notes);
  if (suite.cases.empty()) throw InputError(selected.path + ": no case left to run after --cases / --filter / --variants");
  return selected;
}

void check_suite_up_front(const RunOptions& options) {
  if (options.config == kSuiteFromStdin) return;
  select_suite(options, workload_catalog(), nullptr);
}

}  // namespace graphbench::cli
