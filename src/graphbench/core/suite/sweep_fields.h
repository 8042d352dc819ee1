// Sweeps (docs/spec.md, "Sweeps"): a case's "sweep": {"AXIS": [v1, v2, ...]} or --sweep
// AXIS=v1,v2,...; their checks, and the expansion of a swept case into one ordinary case per value.
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

// Reads a case's "sweep": one axis of `workload` with a strictly increasing list of positive
// integers, and/or "scope" (read_scope_sweep); none when "scope" is all it holds. Fails for a
// training run or a case that also fixes the axis.
std::optional<SweepSpec> read_sweep(const JsonChecker& checker, const nlohmann::json& case_object, const std::string& case_pointer,
                     const WorkloadDescriptor& workload, const std::string& kind);

// --sweep's value, "batch=1,2,4,8": throws InputError "--sweep: expected ..." when malformed.
SweepSpec parse_sweep_option(const std::string& text);

// The axis of `workload` named `axis`, or nullptr.
const SweepAxis* find_sweep_axis(const WorkloadDescriptor& workload, const std::string& axis);

// "NAME[AXIS=VALUE]": the name of one point of a sweep.
std::string sweep_point_name(const std::string& group, const std::string& axis, std::int64_t value);

// Every --sweep of the command line ("scope=..." and at most one integer axis, each once), applied
// to every case of `suite`. InputError for a malformed value, an axis given twice or two integer axes.
void apply_sweep_options(SuiteSpec& suite, const std::vector<std::string>& texts,
                         const std::vector<WorkloadDescriptor>& workloads);

// Gives every benchmark case of `suite` the sweep of the command line (replacing its own sweep and
// any fixed value of the axis). Throws InputError naming the case when its workload has no such
// axis or it is a training run.
void apply_sweep_option(SuiteSpec& suite, const SweepSpec& sweep, const std::vector<WorkloadDescriptor>& workloads);

// Replaces every swept case by one case per value, named by sweep_point_name and checked as any
// case; InputError naming the file, the case and the value when a point cannot be made.
void expand_sweeps(SuiteSpec& suite, const std::vector<WorkloadDescriptor>& workloads);

}  // namespace graphbench
