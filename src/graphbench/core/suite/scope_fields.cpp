#include "graphbench/core/suite/scope_fields.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <set>
#include <sstream>

namespace graphbench {

using nlohmann::json;

namespace {

constexpr const char* kScopeListWanted = "a non-empty list of distinct capture scopes, e.g. [\"full\", \"layer\"]";

}  // namespace

CaptureScope read_scope_value(const JsonChecker& checker, const json& value, const std::string& pointer) {
  if (!value.is_string()) {
    checker.fail_expected(pointer, fmt::format("a capture scope (one of {})", capture_scope_names()), value);
  }
  // Where, as JsonChecker::fail writes it: the file and the field.
  return parse_capture_scope(value.get<std::string>(), fmt::format("{}: {}", checker.path(), pointer));
}

CaptureScope read_case_scope(const JsonChecker& checker, const json& case_object, const std::string& case_pointer,
                             const std::string& kind) {
  const std::string pointer = json_pointer_append(case_pointer, kScopeKey);
  const CaptureScope scope = read_scope_value(checker, case_object.at(kScopeKey), pointer);
  if (kind != "benchmark") {
    checker.fail(pointer, fmt::format("a capture scope shapes the graphs of benchmark steps; this case is a {} run "
                                      "(kind \"{}\")",
                                      kind, kind));
  }
  return scope;
}

std::optional<ScopeSweepSpec> read_scope_sweep(const JsonChecker& checker, const json& case_object,
                                               const std::string& case_pointer) {
  const auto sweep = case_object.find("sweep");
  if (sweep == case_object.end() || !sweep->is_object() || !sweep->contains(kScopeKey)) return std::nullopt;
  const std::string sweep_pointer = json_pointer_append(case_pointer, "sweep");
  if (case_object.contains(kScopeKey)) {
    checker.fail(sweep_pointer, "the case sweeps \"scope\" and fixes it with \"scope\" at once: leave one out");
  }
  ScopeSweepSpec out;
  out.origin = json_pointer_append(sweep_pointer, kScopeKey);
  const json& list = sweep->at(kScopeKey);
  if (!list.is_array() || list.empty()) checker.fail_expected(out.origin, kScopeListWanted, list);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item_pointer = json_pointer_append(out.origin, i);
    const CaptureScope scope = read_scope_value(checker, list[i], item_pointer);
    for (const CaptureScope& earlier : out.scopes) {
      if (earlier == scope) checker.fail(item_pointer, fmt::format("scope \"{}\" is in the list twice", scope.to_string()));
    }
    out.scopes.push_back(scope);
  }
  return out;
}

bool is_scope_sweep_option(const std::string& text) { return text.rfind(std::string(kScopeKey) + "=", 0) == 0; }

ScopeSweepSpec parse_scope_sweep_option(const std::string& text) {
  const std::string where = fmt::format("--sweep \"{}\"", text);
  const auto fail = [&](const std::string& why) -> ScopeSweepSpec {
    throw InputError(fmt::format("{}: expected scope=S1,S2,... with distinct capture scopes (e.g. "
                                 "scope=full,layer,attention-out; the scopes: {}): {}",
                                 where, capture_scope_names(), why));
  };
  ScopeSweepSpec out;
  out.origin = "--sweep";
  const std::string values = text.substr(std::string(kScopeKey).size() + 1);
  if (values.empty()) return fail("an empty list");
  if (values.back() == ',') return fail("a comma with no scope after it");
  std::stringstream items(values);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty()) return fail("an empty scope between two commas");
    const CaptureScope scope = parse_capture_scope(item, where);
    for (const CaptureScope& earlier : out.scopes) {
      if (earlier == scope) return fail(fmt::format("\"{}\" twice", scope.to_string()));
    }
    out.scopes.push_back(scope);
  }
  return out;
}

void apply_scope_sweep_option(SuiteSpec& suite, const ScopeSweepSpec& sweep) {
  for (CaseSpec& c : suite.cases) {
    if (c.kind != "benchmark") {
      throw InputError(fmt::format("--sweep: case {} ({}: {}) is a {} run; a capture scope shapes the graphs of "
                                   "benchmark steps (leave the case out with --cases)",
                                   c.name, c.suite_path, c.json_path, c.kind));
    }
    c.scope = CaptureScope{};
    c.scope_sweep = sweep;
  }
}

std::string scope_point_name(const std::string& name, const CaptureScope& scope) {
  return fmt::format("{}[scope={}]", name, scope.to_string());
}

void expand_scope_sweeps(SuiteSpec& suite) {
  std::set<std::string> names;
  for (const CaseSpec& c : suite.cases) names.insert(c.name);
  std::vector<CaseSpec> expanded;
  for (CaseSpec& c : suite.cases) {
    if (!c.scope_sweep) {
      expanded.push_back(std::move(c));
      continue;
    }
    for (const CaptureScope& scope : c.scope_sweep->scopes) {
      CaseSpec point = c;
      point.scope_sweep.reset();
      point.scope = scope;
      point.name = scope_point_name(c.name, scope);
      point.scope_group = c.name;
      if (!names.insert(point.name).second) {
        throw InputError(fmt::format("{}: {}: {} at scope={}: the point's name {} is already a case's name",
                                     c.suite_path, c.scope_sweep->origin, c.name, scope.to_string(), point.name));
      }
      if (!scope.is_full()) point.published.clear();
      expanded.push_back(std::move(point));
    }
  }
  suite.cases = std::move(expanded);
}

}  // namespace graphbench
