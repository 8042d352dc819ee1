// What a workload declares about itself, as plain data: its name, the modes, kinds, variants and
// dtypes it supports, and the parameters a case of it may set. The spec validator reads only
// this, so spec parsing stays free of LibTorch; bench/ registers one descriptor per workload.
#pragma once

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
  std::vector<std::string> variants;  // eager, static, graph, jit, jit+graph, reference, reference+graph
  std::vector<std::string> dtypes;    // float32, float16, bfloat16
  std::vector<ParamDecl> params;
};

// Every variant name the tool knows, in the order reports list them.
inline const std::vector<std::string>& all_variant_names() {
  static const std::vector<std::string> names = {"eager", "static", "graph", "jit", "jit+graph",
                                                 "reference", "reference+graph"};
  return names;
}

// True for variants that need a CUDA graph (skipped on the CPU).
inline bool variant_needs_cuda_graph(const std::string& variant) {
  return variant == "graph" || variant == "jit+graph" || variant == "reference+graph";
}

}  // namespace graphbench
