// Reads a suite file into a SuiteSpec (see suite_parser.h and docs/spec.md): the top level and the
// assembly of each case; the typed checks live in core/json/json_checker and the *_fields and
// case_settings files beside this one.
#include "graphbench/core/suite/suite_parser.h"

#include "graphbench/core/base/version.h"
#include "graphbench/core/suite/case_settings.h"
#include "graphbench/core/suite/gradient_sync_fields.h"
#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/published_fields.h"
#include "graphbench/core/suite/safe_name.h"
#include "graphbench/core/suite/scope_fields.h"
#include "graphbench/core/suite/sweep_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace graphbench {

using nlohmann::json;

namespace {

const std::vector<std::string> kTopLevelKeys = {"schema_version", "suite", "description",
                                                "defaults", "cases"};
const std::vector<std::string> kCaseKeys = {"name",     "workload", "kind",     "mode",
                                            "dtype",    "variants", "warmup",   "sampling",
                                            "published", "description", "sweep",    "scope"};

std::string known_workloads(const std::vector<WorkloadDescriptor>& workloads) {
  std::vector<std::string> names;
  for (const auto& workload : workloads) names.push_back(workload.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return join_names(names);
}

const WorkloadDescriptor& read_workload(const JsonChecker& checker, const json& object,
                                        const std::string& pointer,
                                        const std::vector<WorkloadDescriptor>& workloads) {
  checker.check_required_key(object, pointer, "workload");
  const std::string field_pointer = json_pointer_append(pointer, "workload");
  const std::string name = checker.read_string(object.at("workload"), field_pointer);
  const WorkloadDescriptor* workload = find_workload(workloads, name);
  if (workload == nullptr) {
    checker.fail(field_pointer, fmt::format("unknown workload \"{}\" (known: {})", name,
                                            known_workloads(workloads)));
  }
  return *workload;
}

// The keys "defaults" may hold.
std::vector<std::string> defaults_keys() {
  std::vector<std::string> keys = common_setting_keys();
  keys.insert(keys.end(), gradient_sync_keys().begin(), gradient_sync_keys().end());
  keys.push_back(kScopeKey);
  return keys;
}

// Every key a case of `workload` may hold: the common ones, then the workload's parameters.
std::vector<std::string> case_keys(const WorkloadDescriptor& workload) {
  std::vector<std::string> keys = kCaseKeys;
  keys.insert(keys.end(), gradient_sync_keys().begin(), gradient_sync_keys().end());
  for (const auto& param : workload.params) keys.push_back(param.name);
  return keys;
}

class SuiteParser {
 public:
  SuiteParser(const std::string& path, const std::vector<WorkloadDescriptor>& workloads)
      : checker_(path), workloads_(workloads) {}

  SuiteSpec parse(const json& doc) {
    if (!doc.is_object()) checker_.fail_expected("", "a JSON object at the top level", doc);
    checker_.check_known_keys(doc, "", kTopLevelKeys);
    read_schema_version(doc);

    SuiteSpec suite;
    suite.path = checker_.path();
    checker_.check_required_key(doc, "", "suite");
    suite.name = checker_.read_non_empty_string(doc.at("suite"), "/suite");
    if (!is_safe_name(suite.name)) {
      // The name becomes the output directory graphbench-out/<suite>: never a path.
      checker_.fail_expected("/suite", fmt::format("a suite name of {}", kSafeNameRule), doc.at("suite"));
    }
    if (const auto found = doc.find("description"); found != doc.end()) {
      suite.description = checker_.read_string(*found, "/description");
    }
    if (const auto found = doc.find("defaults"); found != doc.end()) {
      checker_.check_object(*found, "/defaults");
      reject_removed_gradient_sync_keys(checker_, *found, "/defaults");
      checker_.check_known_keys(*found, "/defaults", defaults_keys());
      defaults_ = read_common_settings(checker_, *found, "/defaults", true);
      read_gradient_sync(checker_, *found, "/defaults", default_gradient_sync_);
      if (const auto scope = found->find(kScopeKey); scope != found->end()) {
        default_scope_ = read_scope_value(checker_, *scope, "/defaults/scope");
      }
    }

    checker_.check_required_key(doc, "", "cases");
    const json& cases = doc.at("cases");
    if (!cases.is_array() || cases.empty()) {
      checker_.fail_expected("/cases", "a non-empty array of cases", cases);
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
      suite.cases.push_back(parse_case(cases[i], json_pointer_append("/cases", i)));
    }
    return suite;
  }

 private:
  void read_schema_version(const json& doc) const {
    const auto found = doc.find("schema_version");
    if (found == doc.end()) return;
    if (!found->is_number_integer() || found->get<std::int64_t>() != kSpecSchemaVersion) {
      checker_.fail_expected(
          "/schema_version",
          fmt::format("{} (the suite-spec schema this graphbench reads)", kSpecSchemaVersion),
          *found);
    }
  }

  std::string read_unique_name(const json& object, const std::string& pointer) {
    checker_.check_required_key(object, pointer, "name");
    const std::string field_pointer = json_pointer_append(pointer, "name");
    std::string name = checker_.read_non_empty_string(object.at("name"), field_pointer);
    for (char c : name) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        // A name is printed in tables, logs and REGRESSION lines: one printable line.
        checker_.fail_expected(field_pointer, "a case name without control characters (newlines, tabs, escapes)",
                               object.at("name"));
      }
    }
    const auto [it, inserted] = case_pointers_.emplace(name, pointer);
    if (!inserted) {
      checker_.fail(field_pointer,
                    fmt::format("duplicate case name \"{}\" (already the name of {})", name,
                                it->second));
    }
    return name;
  }

  CaseSpec parse_case(const json& object, const std::string& pointer) {
    checker_.check_object(object, pointer);
    CaseSpec spec;
    spec.json_path = pointer;
    spec.suite_path = checker_.path();
    spec.name = read_unique_name(object, pointer);
    const WorkloadDescriptor& workload = read_workload(checker_, object, pointer, workloads_);
    spec.workload = workload.name;
    reject_removed_gradient_sync_keys(checker_, object, pointer);
    for (const RefusedParam& refused : workload.refused_params) {
      if (object.contains(refused.name)) checker_.fail(json_pointer_append(pointer, refused.name), refused.message);
    }
    checker_.check_known_keys(object, pointer, case_keys(workload));

    const CommonSettings own = read_common_settings(checker_, object, pointer, false);
    resolve_common_settings(checker_, own, defaults_, workload, spec);
    if (const auto found = object.find("published"); found != object.end()) {
      // Any variant of the workload: the command line may change the case's variants
      // (--use-train-graph, --variants), and the published figures still apply.
      spec.published = read_published(checker_, *found, json_pointer_append(pointer, "published"), workload);
    }
    if (const auto found = object.find("description"); found != object.end()) {
      checker_.read_string(*found, json_pointer_append(pointer, "description"));
    }
    spec.params = read_workload_params(checker_, object, pointer, workload);
    if (object.contains(kSweepKey)) {
      spec.sweep = read_sweep(checker_, object, pointer, workload, spec.kind);
      spec.scope_sweep = read_scope_sweep(checker_, object, pointer);
    }
    if (object.contains(kScopeKey)) {
      spec.scope = read_case_scope(checker_, object, pointer, spec.kind);
    } else if (default_scope_ && spec.kind == "benchmark" && !spec.scope_sweep) {
      // The suite's default scope: for benchmark cases that neither set nor sweep their own.
      spec.scope = *default_scope_;
    }
    spec.gradient_sync = default_gradient_sync_;
    read_gradient_sync(checker_, object, pointer, spec.gradient_sync);
    if (workload.check) {
      if (const auto problem = workload.check(spec.params, spec.mode)) {
        checker_.fail(pointer + problem->pointer, problem->message);
      }
    }
    return spec;
  }

  JsonChecker checker_;
  const std::vector<WorkloadDescriptor>& workloads_;
  CommonSettings defaults_;
  GradientSyncSpec default_gradient_sync_;
  std::optional<CaptureScope> default_scope_;  // "defaults": {"scope": ...}
  std::map<std::string, std::string> case_pointers_;  // case name -> "/cases/i"
};

}  // namespace

json parse_suite_json(const std::string& text, const std::string& path) { return parse_json_text(text, path); }

SuiteSpec parse_suite_spec(const json& doc, const std::string& path,
                           const std::vector<WorkloadDescriptor>& workloads) {
  return SuiteParser(path, workloads).parse(doc);
}

SuiteSpec load_suite_spec(const std::string& path,
                          const std::vector<WorkloadDescriptor>& workloads) {
  if (path == kSuiteFromStdin) {
    const std::string text = read_text_stream(stdin, kStdinName, "suite");
    return parse_suite_spec(parse_suite_json(text, kStdinName), kStdinName, workloads);
  }
  return parse_suite_spec(parse_suite_json(read_text_file(path, "suite file"), path), path, workloads);
}

}  // namespace graphbench
