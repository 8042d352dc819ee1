// What a workload declares about itself, as plain data (modes, kinds, variants, dtypes, parameters),
// so that suite parsing stays free of LibTorch; bench/ registers one descriptor per workload.
#pragma once

#include "graphbench/core/workload/variant.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

enum class ParamType {
  kPositiveInt,      // an integer >= 1
  kPositiveIntList,  // a non-empty list of integers >= 1 (a shape)
  kNumber,           // a number in [min, max]
  kNumberList,       // a list of numbers, each in [min, max]
  kString,           // one of `choices` (any string if `choices` is empty)
  kBool,
  kIntList,          // a list of integers, each in [min, max]
  kPath,             // a file name, relative to the suite file's directory or absolute; stored
                     // resolved (the suite's directory joined in), so that it works from any cwd
  kObjectList,       // a non-empty list of objects, each with the keys that `fields` declare
  kStringList,       // a list of strings (possibly empty)
};

struct ParamDecl {
  std::string name;
  ParamType type = ParamType::kPositiveInt;
  nlohmann::json default_value;  // null: the parameter is required (unless `optional`)
  std::string help;
  double min = 0.0;  // kNumber, kNumberList, kIntList
  double max = 0.0;
  std::vector<std::string> choices;  // kString
  std::size_t length = 0;            // lists: exactly this many items (0: any number)
  bool optional = false;             // a missing parameter without default is left out
  std::vector<ParamDecl> fields;     // kObjectList: the keys of each object
};

// A rule between parameters their declarations cannot express: it sees a case's checked parameters
// and its mode; a problem names the value by a JSON pointer relative to the case ("/inputs/0/range").
struct ParamProblem {
  std::string pointer;
  std::string message;
};
using ParamsCheck =
    std::function<std::optional<ParamProblem>(const nlohmann::json& params, const std::string& mode)>;

// An axis a case may sweep (docs/spec.md, "Sweeps"): `apply` puts a value into a case's parameters,
// or returns a problem when the case cannot take the axis.
struct SweepAxis {
  std::string name;  // "batch", "pos"
  std::string help;
  std::function<std::optional<ParamProblem>(nlohmann::json& params, std::int64_t value)> apply;
  std::string fixed_param;  // the parameter that fixes this axis ("batch"): not set and swept at once
};

// A key a case may not set, refused with its own message rather than as an unknown key.
struct RefusedParam {
  std::string name;
  std::string message;
};

struct WorkloadDescriptor {
  std::string name;
  std::string summary;
  std::vector<std::string> modes;     // "inference", "train"
  std::vector<std::string> kinds;     // "benchmark", "training"
  std::vector<Variant> variants;      // the variants a case of it may run, in report order
  std::vector<std::string> dtypes;    // float32, float16, bfloat16
  std::vector<ParamDecl> params;
  std::vector<RefusedParam> refused_params;
  ParamsCheck check;  // optional
  std::vector<SweepAxis> sweep_axes;  // none: its cases cannot sweep
};

// The workload called `name`, or null.
inline const WorkloadDescriptor* find_workload(const std::vector<WorkloadDescriptor>& workloads, const std::string& name) {
  for (const auto& workload : workloads) {
    if (workload.name == name) return &workload;
  }
  return nullptr;
}

// A descriptor holding what every workload states first (its name, a line on what it is, the modes
// and kinds of its cases); the workload fills in the rest.
inline WorkloadDescriptor describe_workload(std::string name, std::vector<std::string> modes,
                                            std::vector<std::string> kinds, std::string summary) {
  WorkloadDescriptor d;
  d.name = std::move(name);
  d.summary = std::move(summary);
  d.modes = std::move(modes);
  d.kinds = std::move(kinds);
  return d;
}

}  // namespace graphbench
