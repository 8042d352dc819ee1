// What the two model workloads (torchscript, aoti) share: the case parameters that describe a
// model file and its inputs, reading them, making the input tensors, the tolerances of the
// comparison with eager, and the checks of the file before anything runs.
#pragma once

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
  // Role state (a decoding step's KV cache): allocated once per runner from the case's spec, bound
  // to a fixed buffer that the model writes in place, never fed. Its starting values: standard
  // normal draws from a generator of the case's device seeded with `seed`, in float32, times
  // `scale`, cast to the dtype (scripts/model_zoo.py's state_fill draws the same on the same device).
  // On the device, not the CPU: a serving-scale cache (12 tensors of 537 million elements at batch
  // 256 and 4096 positions) is 26 GB of float32 draws, made anew for every point of a sweep.
  bool state = false;
  std::int64_t seed = 0;
  double scale = 1.0;
};

// `path` (a file relative to the suite file) and `inputs` ([{shape, dtype, range}]).
ParamDecl model_path_param(const char* help);
ParamDecl model_inputs_param();
// `rtol` and `atol` of the comparison with eager; left out, they follow the case's dtype.
std::vector<ParamDecl> tolerance_params();
// `read_bytes`: the bytes a step must read at least (the model's parameters, plus the KV cache of a
// decoding step; scripts/export_model.py writes it), the roofline of a model case.
ParamDecl read_bytes_param();
// The descriptor of a model workload: modes inference and train, kind benchmark, the floating
// dtypes, the model sweep axes, and the parameters `path` (`path_help`), `inputs`, the workload's
// `own` ones, the tolerances and `read_bytes`, in that order.
WorkloadDescriptor model_descriptor(const char* name, const char* summary, std::vector<Variant> variants,
                                   const char* path_help, std::vector<ParamDecl> own);
// The case's roofline: read_bytes where given, otherwise none (a model is a black box).
double model_read_bytes(const CaseSpec& spec);
// The rules between the fields of `inputs`: `range` for int64 inputs (required) and only for
// them, low < high.
std::optional<ParamProblem> check_model_inputs(const nlohmann::json& params);
// Inputs with role state go with inference of one whole model only (not a training step, not a
// chain of pieces): `what` names what the case is instead, e.g. "mode train".
std::optional<ParamProblem> check_no_state_inputs(const nlohmann::json& params, const std::string& what);

// Whether a case's inputs ([{shape, dtype}]) fit those a package recorded: the same dtypes and
// ranks, and the same size in every dimension but those recorded as -1 (a dynamic dimension, as
// scripts/export_model.py --dynamic-batch records the batch and --dynamic-cache a KV cache's
// length), which may not exceed the recorded "max" where there is one.
bool inputs_fit_recorded(const nlohmann::json& recorded, const nlohmann::json& given);

std::vector<ModelInput> read_model_inputs(const CaseSpec& spec);
// Floating inputs from the standard normal, int64 inputs uniform in their range (the global
// generator: the case runner seeds it).
std::vector<at::Tensor> make_model_inputs(const std::vector<ModelInput>& inputs, at::Device device);
// The model's inputs as inputs "input0", "input1", ... of a program, each fed the tensor given.
std::vector<ValueId> declare_model_inputs(Builder& b, const std::vector<at::Tensor>& inputs, Feed& feed);
// The same, where an input with role state is a state external "input<i>" of the program instead,
// its starting values (the tensor given) put into `store`, not fed.
std::vector<ValueId> declare_model_inputs(Builder& b, const std::vector<ModelInput>& declared,
                                          const std::vector<at::Tensor>& inputs, Feed& feed, ModelStore& store);
bool has_state_inputs(const std::vector<ModelInput>& inputs);
// The bytes of the state inputs (a KV cache), part of what a step must read.
double state_bytes(const std::vector<ModelInput>& inputs);
// Inference, with state in the static roles where the case has state inputs: their buffers are
// fixed and written inside the graph, never overwritten by a feed.
Policy model_inference_policy(const std::vector<ModelInput>& inputs);

struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};
// The case's `rtol` / `atol` where set; otherwise by its dtype (the model's floating-point type):
// float32 1e-3 / 1e-4, float16 1e-2 / 1e-3, bfloat16 5e-2 / 1e-2.
Tolerance model_tolerance(const CaseSpec& spec);

// "<suite file>: <case pointer>/<field>: <message>" as an InputError.
[[noreturn]] void fail_case_field(const CaseSpec& spec, const std::string& field, const std::string& message);

// The case's `field` (a file: `path`, or a training package's `state`), checked to be a readable
// file that starts as a zip archive does (TorchScript files and AOTInductor packages both are);
// throws InputError naming the suite file, the case, the field and the file. `what` names the
// expected kind of file in messages.
std::string checked_model_file(const CaseSpec& spec, const std::string& what, const char* field = "path");

}  // namespace graphbench::bench
