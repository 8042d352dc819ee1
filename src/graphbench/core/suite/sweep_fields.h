// Sweeps (docs/spec.md, "Sweeps"): a case's "sweep": {"AXIS": [v1, v2, ...]} or the command line's
// --sweep AXIS=v1,v2,...; the checks of both, and the expansion of a swept case into one ordinary
// case per value, which is what the runner, the writers and `compare` see.
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

inline constexpr const char* kSweepKey = "sweep";

// Reads the "sweep" of the case `case_object` at `case_pointer`: an object of one axis of
// `workload` whose value is a strictly increasing list of positive integers, and or "scope" (a list
// of capture scopes, read by read_scope_sweep: core/suite/scope_fields.h); none when "scope" is all it
// holds. Fails when the case is a training run or also fixes the axis (sets its parameter, say "batch").
std::optional<SweepSpec> read_sweep(const JsonChecker& checker, const nlohmann::json& case_object, const std::string& case_pointer,
                     const WorkloadDescriptor& workload, const std::string& kind);

// --sweep's value, "batch=1,2,4,8": throws InputError "--sweep: expected ..." when malformed.
SweepSpec parse_sweep_option(const std::string& text);

// The axis of `workload` named `axis`, or nullptr.
const SweepAxis* find_sweep_axis(const WorkloadDescriptor& workload, const std::string& axis);

// "NAME[AXIS=VALUE]": the name of one point of a sweep.
std::string sweep_point_name(const std::string& group, const std::string& axis, std::int64_t value);

// Every --sweep of the command line, in order: "scope=..." (core/suite/scope_fields.h) and at most one
// integer axis, each axis once; applied to every case of `suite` as apply_sweep_option and
// apply_scope_sweep_option do. Throws InputError for a malformed value, an axis given twice or two
// integer axes.
void apply_sweep_options(SuiteSpec& suite, const std::vector<std::string>& texts,
                         const std::vector<WorkloadDescriptor>& workloads);

// Gives every benchmark case of `suite` the sweep of the command line (replacing its own sweep and
// any fixed value of the axis). Throws InputError naming the case when its workload has no such
// axis or it is a training run.
void apply_sweep_option(SuiteSpec& suite, const SweepSpec& sweep, const std::vector<WorkloadDescriptor>& workloads);

// Replaces every case that has a sweep by one case per value, in order: named by
// sweep_point_name, the value written into its parameters by the axis, checked as the workload
// checks any case. Throws InputError naming the suite file, the case and the value when a point
// cannot be made (the axis does not fit the case, a point's name is taken).
void expand_sweeps(SuiteSpec& suite, const std::vector<WorkloadDescriptor>& workloads);

}  // namespace graphbench
