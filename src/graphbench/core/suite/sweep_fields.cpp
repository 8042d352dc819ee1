#include "graphbench/core/suite/sweep_fields.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/suite/scope_fields.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <set>
#include <sstream>

namespace graphbench {

using nlohmann::json;

namespace {

std::vector<std::string> axis_names(const WorkloadDescriptor& workload) {
  std::vector<std::string> names;
  for (const auto& axis : workload.sweep_axes) names.push_back(axis.name);
  return names;
}

std::string axes_text(const WorkloadDescriptor& workload) {
  if (workload.sweep_axes.empty()) return fmt::format("workload {} has no axis to sweep", workload.name);
  return fmt::format("the axes of workload {}: {}", workload.name, join_names(axis_names(workload)));
}

// "a strictly increasing list of positive integers" or the reason it is not.
std::string values_problem(const std::vector<std::int64_t>& values) {
  if (values.empty()) return "an empty list";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 1) return fmt::format("{} at position {}, not a positive integer", values[i], i + 1);
    if (i > 0 && values[i] <= values[i - 1]) {
      return fmt::format("{} after {}, not increasing", values[i], values[i - 1]);
    }
  }
  return "";
}

constexpr const char* kValuesWanted = "a strictly increasing list of positive integers";

}  // namespace

const SweepAxis* find_sweep_axis(const WorkloadDescriptor& workload, const std::string& axis) {
  for (const auto& a : workload.sweep_axes) {
    if (a.name == axis) return &a;
  }
  return nullptr;
}

std::string sweep_point_name(const std::string& group, const std::string& axis, std::int64_t value) {
  return fmt::format("{}[{}={}]", group, axis, value);
}

std::optional<SweepSpec> read_sweep(const JsonChecker& checker, const json& case_object, const std::string& case_pointer,
                                    const WorkloadDescriptor& workload, const std::string& kind) {
  const std::string pointer = json_pointer_append(case_pointer, kSweepKey);
  const json& value = case_object.at(kSweepKey);
  if (kind != "benchmark") {
    checker.fail(pointer, fmt::format("a sweep times benchmark steps; this case is a {} run (kind \"{}\")", kind, kind));
  }
  // Beside "scope" (core/suite/scope_fields.h, read there), at most one axis of the workload.
  const bool has_scope = value.is_object() && value.contains(kScopeKey);
  if (!value.is_object() || value.empty() || value.size() - (has_scope ? 1 : 0) > 1) {
    checker.fail_expected(pointer, fmt::format("an object of one axis and its values, e.g. {{\"batch\": [1, 2, 4, 8]}} "
                                               "({}), and or capture scopes, \"scope\": [\"full\", \"layer\"]",
                                               axes_text(workload)),
                          value);
  }
  if (value.size() == 1 && has_scope) return std::nullopt;
  SweepSpec sweep;
  sweep.origin = pointer;
  for (const auto& item : value.items()) {
    if (item.key() != kScopeKey) sweep.axis = item.key();
  }
  const SweepAxis* axis = find_sweep_axis(workload, sweep.axis);
  if (axis == nullptr) checker.fail(pointer, fmt::format("no axis \"{}\" to sweep ({})", sweep.axis, axes_text(workload)));
  if (!axis->fixed_param.empty() && case_object.contains(axis->fixed_param)) {
    checker.fail(pointer, fmt::format("the case sweeps \"{}\" and fixes it with \"{}\" at once: leave one out",
                                      sweep.axis, axis->fixed_param));
  }
  const std::string list_pointer = json_pointer_append(pointer, sweep.axis);
  const json& list = value.at(sweep.axis);
  if (!list.is_array()) checker.fail_expected(list_pointer, kValuesWanted, list);
  for (std::size_t i = 0; i < list.size(); ++i) {
    sweep.values.push_back(checker.read_positive_int(list[i], json_pointer_append(list_pointer, i)));
  }
  if (const std::string problem = values_problem(sweep.values); !problem.empty()) {
    checker.fail_expected(list_pointer, fmt::format("{} ({})", kValuesWanted, problem), list);
  }
  return sweep;
}

SweepSpec parse_sweep_option(const std::string& text) {
  const auto fail = [&](const std::string& why) -> SweepSpec {
    throw InputError(fmt::format("--sweep \"{}\": expected AXIS=V1,V2,... with {} (e.g. batch=1,2,4,8): {}", text,
                                 kValuesWanted, why));
  };
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) return fail("no AXIS= before the values");
  SweepSpec sweep;
  sweep.origin = "--sweep";
  sweep.axis = text.substr(0, equals);
  std::stringstream values(text.substr(equals + 1));
  std::string item;
  while (std::getline(values, item, ',')) {
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || end == item.c_str() || *end != '\0' || errno == ERANGE) {
      return fail(fmt::format("\"{}\" is not an integer", item));
    }
    sweep.values.push_back(value);
  }
  if (!text.empty() && text.back() == ',') return fail("a comma with no value after it");
  if (const std::string problem = values_problem(sweep.values); !problem.empty()) return fail(problem);
  return sweep;
}

void apply_sweep_option(SuiteSpec& suite, const SweepSpec& sweep, const std::vector<WorkloadDescriptor>& workloads) {
  for (CaseSpec& c : suite.cases) {
    const WorkloadDescriptor* workload = find_workload(workloads, c.workload);
    if (workload == nullptr) continue;  // the suite runner reports an unknown workload
    if (c.kind != "benchmark") {
      throw InputError(fmt::format("--sweep: case {} ({}: {}) is a {} run; a sweep times benchmark steps (leave the "
                                   "case out with --cases)",
                                   c.name, c.suite_path, c.json_path, c.kind));
    }
    if (find_sweep_axis(*workload, sweep.axis) == nullptr) {
      throw InputError(fmt::format("--sweep: case {} ({}: {}) has no axis \"{}\" ({})", c.name, c.suite_path,
                                   c.json_path, sweep.axis, axes_text(*workload)));
    }
    c.sweep = sweep;
  }
}

void apply_sweep_options(SuiteSpec& suite, const std::vector<std::string>& texts,
                         const std::vector<WorkloadDescriptor>& workloads) {
  std::optional<ScopeSweepSpec> scopes;
  std::optional<SweepSpec> axis;
  for (const std::string& text : texts) {
    if (is_scope_sweep_option(text)) {
      if (scopes) throw InputError(fmt::format("--sweep \"{}\": the scopes are already swept by another --sweep", text));
      scopes = parse_scope_sweep_option(text);
      continue;
    }
    SweepSpec sweep = parse_sweep_option(text);
    if (axis) {
      throw InputError(fmt::format("--sweep \"{}\": --sweep {}=... is given already: one integer axis at a time, "
                                   "beside scope=...",
                                   text, axis->axis));
    }
    axis = std::move(sweep);
  }
  if (axis) apply_sweep_option(suite, *axis, workloads);
  if (scopes) apply_scope_sweep_option(suite, *scopes);
}

void expand_sweeps(SuiteSpec& suite, const std::vector<WorkloadDescriptor>& workloads) {
  std::set<std::string> names;
  for (const CaseSpec& c : suite.cases) names.insert(c.name);
  std::vector<CaseSpec> expanded;
  for (CaseSpec& c : suite.cases) {
    if (!c.sweep) {
      expanded.push_back(std::move(c));
      continue;
    }
    const WorkloadDescriptor* workload = find_workload(workloads, c.workload);
    const SweepAxis* axis = workload != nullptr ? find_sweep_axis(*workload, c.sweep->axis) : nullptr;
    if (axis == nullptr) {
      throw InputError(fmt::format("{}: {}: no axis \"{}\" to sweep", c.suite_path, c.sweep->origin, c.sweep->axis));
    }
    for (const std::int64_t value : c.sweep->values) {
      CaseSpec point = c;
      point.sweep.reset();
      point.sweep_point = SweepPoint{c.name, axis->name, value};
      point.name = sweep_point_name(c.name, axis->name, value);
      // A scope point swept over an integer axis compares scopes at each of its values.
      if (!c.scope_group.empty()) point.scope_group = sweep_point_name(c.scope_group, axis->name, value);
      const auto where = [&] {
        return fmt::format("{}: {}: {} at {}={}", c.suite_path, c.sweep->origin, c.name, axis->name, value);
      };
      if (!names.insert(point.name).second) {
        throw InputError(fmt::format("{}: the point's name {} is already a case's name", where(), point.name));
      }
      if (const auto problem = axis->apply(point.params, value)) {
        throw InputError(fmt::format("{}: {}{}", where(), problem->pointer.empty() ? "" : problem->pointer + ": ",
                                     problem->message));
      }
      if (workload->check) {
        if (const auto problem = workload->check(point.params, point.mode)) {
          throw InputError(fmt::format("{}: {}: {}", where(), problem->pointer, problem->message));
        }
      }
      // Published figures describe the case as written: a point at other parameters gets none.
      if (point.params != c.params) point.published.clear();
      expanded.push_back(std::move(point));
    }
  }
  suite.cases = std::move(expanded);
}

}  // namespace graphbench
