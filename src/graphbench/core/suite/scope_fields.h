// Capture scopes in suite files and on the command line (docs/spec.md, docs/sweeps.md): a case's
// "scope", a sweep's "scope": [...] list and --sweep scope=S1,S2,...; their checks, and the
// expansion of a case swept over scopes into one ordinary case per scope, named NAME[scope=SCOPE].
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/suite_spec.h"

#include <nlohmann/json.hpp>

#include <string>

namespace graphbench {

inline constexpr const char* kScopeKey = "scope";

// A scope at `pointer` ("/defaults/scope", a case's, an item of a sweep's list): a string
// parse_capture_scope reads; fails naming the file and the field.
CaptureScope read_scope_value(const JsonChecker& checker, const nlohmann::json& value, const std::string& pointer);

// A case's "scope"; fails naming the file and the field for a bad value or a training run.
CaptureScope read_case_scope(const JsonChecker& checker, const nlohmann::json& case_object,
                             const std::string& case_pointer, const std::string& kind);

// The "scope" list of a case's "sweep" object, when it has one: a non-empty list of distinct
// scopes. Fails when the case also fixes "scope".
std::optional<ScopeSweepSpec> read_scope_sweep(const JsonChecker& checker, const nlohmann::json& case_object,
                                               const std::string& case_pointer);

// True for --sweep's values of the scope axis ("scope=...").
bool is_scope_sweep_option(const std::string& text);

// --sweep's value "scope=full,layer"; InputError "--sweep "...": ..." when malformed.
ScopeSweepSpec parse_scope_sweep_option(const std::string& text);

// Gives every benchmark case of `suite` the scope sweep of the command line (replacing its own and
// any scope it fixes). Throws InputError naming a training case.
void apply_scope_sweep_option(SuiteSpec& suite, const ScopeSweepSpec& sweep);

// "NAME[scope=SCOPE]": the name of one scope of a case swept over scopes.
std::string scope_point_name(const std::string& name, const CaptureScope& scope);

// Replaces every case with a scope sweep by one case per scope, named by scope_point_name, its
// integer sweep kept for expand_sweeps; published figures stay on the full scope's point only.
// InputError naming the file and the case when a point's name is taken.
void expand_scope_sweeps(SuiteSpec& suite);

}  // namespace graphbench
