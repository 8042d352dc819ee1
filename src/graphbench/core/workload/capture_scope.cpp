#include "graphbench/core/workload/capture_scope.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <regex>

namespace graphbench {

namespace {

constexpr const char* kModulesPrefix = "modules=";
constexpr const char* kPoolEachSuffix = ":pool-each";

CaptureScope parse_scope_kind(const std::string& text, const std::string& where);

}  // namespace

std::string capture_scope_names() {
  std::string names;
  for (const NamedScope& named : kNamedScopes) names += (names.empty() ? "" : ", ") + std::string(named.name);
  return names;
}

std::string CaptureScope::to_string() const {
  const std::string pools = pool_per_graph ? kPoolEachSuffix : "";
  if (kind == ScopeKind::kModules) return kModulesPrefix + modules_regex + pools;
  for (const NamedScope& named : kNamedScopes) {
    if (named.kind == kind) return named.name + pools;
  }
  return "full";
}

CaptureScope parse_capture_scope(const std::string& text, const std::string& where) {
  const std::string suffix = kPoolEachSuffix;
  if (text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0) {
    CaptureScope scope = parse_scope_kind(text.substr(0, text.size() - suffix.size()), where);
    if (scope.is_full()) {
      throw InputError(fmt::format("{}: scope \"{}\": the full scope captures one graph, so it has one pool; "
                                   "\":pool-each\" applies to the scopes that cut the step into graphs",
                                   where, text));
    }
    scope.pool_per_graph = true;
    return scope;
  }
  return parse_scope_kind(text, where);
}

namespace {

CaptureScope parse_scope_kind(const std::string& text, const std::string& where) {
  for (const NamedScope& named : kNamedScopes) {
    if (named.kind != ScopeKind::kModules && text == named.name) return CaptureScope{named.kind, ""};
  }
  const std::string prefix = kModulesPrefix;
  if (text.rfind(prefix, 0) == 0) {
    const std::string regex = text.substr(prefix.size());
    if (regex.empty()) {
      throw InputError(fmt::format("{}: scope \"{}\" names no modules: expected modules=REGEX, e.g. "
                                   "modules=self_attn|mlp",
                                   where, text));
    }
    try {
      std::regex compiled(regex);
      (void)compiled;
    } catch (const std::regex_error& e) {
      throw InputError(fmt::format("{}: scope \"{}\": the modules regex does not compile: {}", where, text, e.what()));
    }
    return CaptureScope{ScopeKind::kModules, regex};
  }
  throw InputError(fmt::format("{}: unknown capture scope \"{}\": expected one of {} (a segmented scope may end "
                               "in :pool-each)",
                               where, text, capture_scope_names()));
}

}  // namespace

}  // namespace graphbench
