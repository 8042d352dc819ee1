// What a workload declares about itself, as plain data: its name, the modes, kinds, variants and
// dtypes it supports, and the parameters a case of it may set. The spec validator reads only
// this, so spec parsing stays free of LibTorch; bench/ registers one descriptor per workload.
#pragma once

#include "graphbench/workload/variant.h"

#include <nlohmann/json.hpp>

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
};

struct ParamDecl {
  std::string name;
  ParamType type = ParamType::kPositiveInt;
  nlohmann::json default_value;  // null: the parameter is required
  std::string help;
  double min = 0.0;  // kNumber, kNumberList
  double max = 0.0;
  std::vector<std::string> choices;  // kString
};

struct WorkloadDescriptor {
  std::string name;
  std::string summary;
  std::vector<std::string> modes;     // "inference", "train"
  std::vector<std::string> kinds;     // "benchmark", "training"
  std::vector<Variant> variants;      // the variants a case of it may run, in report order
  std::vector<std::string> dtypes;    // float32, float16, bfloat16
  std::vector<ParamDecl> params;
};

}  // namespace graphbench
