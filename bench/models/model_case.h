// What the model workloads share: a model file's parameters, its inputs, tolerances and checks.
#pragma once

#include "catalog/model_params.h"

#include "graphbench/engine/exec/feed.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/exec/policy.h"
#include "graphbench/engine/plan/builder.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace graphbench::bench {

struct ModelInput {
  std::vector<std::int64_t> shape;
  at::ScalarType dtype = at::kFloat;
  std::int64_t low = 0;   // int64 inputs: values drawn uniformly from [low, high)
  std::int64_t high = 0;
  // Role state (a KV cache): a fixed buffer the model writes in place, never fed, starting from
  // `scale` times float32 normal draws seeded with `seed` on the case's device (as
  // scripts/model_zoo.py's state_fill; on the device: a serving-scale cache is 26 GB of draws).
  bool state = false;
  std::int64_t seed = 0;
  double scale = 1.0;
};

// The case's roofline: read_bytes where given, otherwise none (a model is a black box).
double model_read_bytes(const CaseSpec& spec);

// Whether a case's inputs ([{shape, dtype}]) fit those a package recorded: same dtypes and ranks,
// same sizes but where recorded as -1 (dynamic), up to the recorded "max" where there is one.
bool inputs_fit_recorded(const nlohmann::json& recorded, const nlohmann::json& given);

std::vector<ModelInput> read_model_inputs(const CaseSpec& spec);
// Floating inputs standard normal, int64 uniform in their range (the global generator).
std::vector<at::Tensor> make_model_inputs(const std::vector<ModelInput>& inputs, at::Device device);
// The model's inputs as inputs "input0", "input1", ... of a program, each fed the tensor given; one
// `declared` with role state a state external instead, its starting values put into `store`.
std::vector<ValueId> declare_model_inputs(Builder& b, const std::vector<at::Tensor>& inputs, Feed& feed,
                                          const std::vector<ModelInput>& declared = {}, ModelStore* store = nullptr);
bool has_state_inputs(const std::vector<ModelInput>& inputs);
// The bytes of the state inputs (a KV cache), part of what a step must read.
double state_bytes(const std::vector<ModelInput>& inputs);
// Inference, with state in the static roles where there are state inputs (written inside the graph).
Policy model_inference_policy(const std::vector<ModelInput>& inputs);

struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};
// The case's `rtol` / `atol` where set; otherwise by its dtype.
Tolerance model_tolerance(const CaseSpec& spec);

// "<suite file>: <case pointer>/<field>: <message>" as an InputError.
[[noreturn]] void fail_case_field(const CaseSpec& spec, const std::string& field, const std::string& message);

// The case's file `field`, checked to be a readable zip archive (TorchScript files and AOTInductor
// packages are); InputError naming the suite file, case, field and file. `what`: its kind.
std::string checked_model_file(const CaseSpec& spec, const std::string& what, const char* field = "path");

}  // namespace graphbench::bench
