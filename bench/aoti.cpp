// aoti: your own model as an AOTInductor package (.pt2), run by AOTIModelPackageLoader as one op.
//   mode inference  the model's forward
//   mode train      a whole training step compiled into the package (export_model.py --mode train
//                   --format pt2), its state read from the case's `state` file into the store and
//                   updated in place by every call
//   eager  call by call;  graph  captured after a warm-up (a failed capture runs eagerly)
// Only where LibTorch has the loader (2.6+; elsewhere skipped). A case whose inputs differ from
// those the package records is refused before anything runs; `pieces` are a torchscript case's.
#include "common/case_helpers.h"
#include "common/case_workload.h"
#include "models/model_case.h"
#include "models/model_instance.h"
#include "models/training_package.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/data/zip_sizes.h"
#include "graphbench/engine/exec/error_text.h"
#include "graphbench/engine/ops/aoti_package.h"
#include "graphbench/engine/ops/aoti_training_step.h"
#include "graphbench/engine/plan/builder.h"
#include "graphbench/engine/plan/tensor_spec.h"

#include <fmt/format.h>

namespace graphbench {

namespace {

// Metadata export_model.py records: the inputs, the bytes a step reads, and the weights' part of those.
const char* const kInputsMetadataKey = "graphbench_inputs";
const char* const kReadBytesMetadataKey = "graphbench_read_bytes";
const char* const kWeightsBytesMetadataKey = "graphbench_weights_bytes";

std::map<std::string, std::string> package_metadata(const CaseSpec& spec, const std::string& file) {
  try {
    return ops::AotiPackage::read_metadata(file);
  } catch (const std::exception& e) {
    bench::fail_case_field(spec, "path",
                           fmt::format("{}: not an AOTInductor package (case {}; {}). A TorchScript file runs with "
                                       "workload \"torchscript\"",
                                       file, spec.name, error_text(e)));
  }
}

// The inputs the exporter recorded, as the case would write them (range aside).
void check_recorded_inputs(const CaseSpec& spec, const std::string& file, const std::map<std::string, std::string>& metadata) {
  const auto found = metadata.find(kInputsMetadataKey);
  if (found == metadata.end()) return;
  const auto recorded = nlohmann::json::parse(found->second, nullptr, /*allow_exceptions=*/false);
  if (!recorded.is_array()) return;
  nlohmann::json given = nlohmann::json::array();
  for (const auto& input : spec.params.at("inputs")) given.push_back({{"shape", input.at("shape")}, {"dtype", input.at("dtype")}});
  if (!bench::inputs_fit_recorded(recorded, given)) {
    bench::fail_case_field(spec, "inputs",
                           fmt::format("the package {} was compiled for the inputs {}, the case gives {} (case {}); a "
                                       "package runs only at the shapes it was compiled for (-1: any size up to its \"max\")",
                                       file, recorded.dump(), given.dump(), spec.name));
  }
}

// A positive number the exporter recorded under `key`, or 0 (none recorded).
double recorded_bytes(const std::map<std::string, std::string>& metadata, const char* key) {
  const auto found = metadata.find(key);
  if (found == metadata.end()) return 0.0;
  try {
    const double bytes = std::stod(found->second);
    return bytes > 0.0 ? bytes : 0.0;
  } catch (const std::exception&) {
    return 0.0;
  }
}

// The bytes a step must read as recorded: the weights plus the case's state inputs, else the total.
double recorded_read_bytes(const std::map<std::string, std::string>& metadata,
                           const std::vector<bench::ModelInput>& declared) {
  const double weights = recorded_bytes(metadata, kWeightsBytesMetadataKey);
  if (weights > 0.0) return weights + bench::state_bytes(declared);
  return recorded_bytes(metadata, kReadBytesMetadataKey);
}

// A training step's package runs in mode train only, and mode train needs one.
void check_package_kind(const CaseSpec& spec, const std::string& file, const std::map<std::string, std::string>& metadata) {
  const bool training_step = bench::records_training_step(metadata);
  if (spec.mode == "train" && !training_step) {
    bench::fail_case_field(spec, "mode",
                           fmt::format("mode train needs a training step's package; {} is a model's forward (case {}): "
                                       "export one with scripts/export_model.py --mode train --format pt2",
                                       file, spec.name));
  }
  if (spec.mode != "train" && training_step) {
    bench::fail_case_field(spec, "mode",
                           fmt::format("{} is a whole training step's package (case {}): give it \"mode\": \"train\" "
                                       "and its \"state\" file",
                                       file, spec.name));
  }
}

class AotiCase final : public bench::ModelInstance {
 public:
  AotiCase(const CaseSpec& spec, const CaseContext& context) : ModelInstance(spec, context) {
    if (!ops::aoti_supported()) {
      skip_reason_ = ops::aoti_unsupported_reason();
      return;
    }
    const std::string file = bench::param_string(spec, "path");
    const auto metadata = package_metadata(spec, file);
    const auto device_key = metadata.find("AOTI_DEVICE_KEY");
    if (device_key != metadata.end() && device_key->second != at::DeviceTypeName(device_.type(), /*lower_case=*/true)) {
      skip_reason_ = fmt::format("the package was compiled for {}; this run is on {}", device_key->second,
                                 at::DeviceTypeName(device_.type(), true));
      return;
    }
    check_package_kind(spec, file, metadata);
    read_inputs();
    // Without read_bytes, the roofline is what the exporter recorded (a training step: its whole
    // state once).
    if (read_bytes_ <= 0.0) read_bytes_ = recorded_read_bytes(metadata, declared_);
    auto package = ops::AotiPackage::load(file, device_);
    program_ = train_ ? build_train_program(std::move(package), file, metadata)
                      : build_inference_program(std::move(package), file);
  }

  std::string skip_reason(const Variant&) const override { return skip_reason_; }

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool validation) override {
    if (!program_) throw EngineError("aoti: " + skip_reason_);
    // Every validation runner starts from the same random state, so that a step that draws random
    // numbers (dropout) draws the same ones eagerly and replayed.
    if (validation && train_) at::manual_seed(seed_);
    // The loader loads the package's kernels on its first run: warm up before a capture.
    return engine_runner(variant, /*warmup_steps=*/3);
  }

 private:
  std::shared_ptr<const Program> build_inference_program(std::shared_ptr<ops::AotiPackage> package,
                                                         const std::string& file) {
    return ModelInstance::build_inference_program(
        "aoti_forward", [&](Builder& b, const std::vector<ValueId>& ids) {
          return ops::aoti_call(b, std::move(package), inputs_, file, ids);
        });
  }

  // The package's inputs, then its target (drawn after the inputs, as the torchscript workload
  // draws a loss's target), then its state as params and state externals of the model store.
  std::shared_ptr<const Program> build_train_program(std::shared_ptr<ops::AotiPackage> package, const std::string& file,
                                                     const std::map<std::string, std::string>& metadata) {
    const bench::TrainingStep step = bench::read_training_step(spec_, file, metadata);
    const std::vector<at::Tensor> initial = bench::load_initial_state(spec_, step, device_);
    Builder b("aoti_train");
    ops::AotiTrainingCall call;
    call.run = [package = std::move(package)](const std::vector<at::Tensor>& in) { return package->run(in); };
    call.label = file;
    call.state_returned = step.state_returned;
    std::vector<ValueId> inputs = bench::declare_model_inputs(b, inputs_, feed_);
    call.example_inputs = inputs_;
    if (step.target) {
      const at::Tensor target = bench::make_model_inputs({*step.target}, device_).at(0);
      inputs.push_back(b.input("target", spec_of(target)));
      feed_["target"] = target;
      call.example_inputs.push_back(target);
    }
    std::vector<ValueId> state;
    for (std::size_t i = 0; i < step.state.size(); ++i) {
      const bench::StateEntry& entry = step.state[i];
      initial_.set(entry.name, initial[i]);
      const TensorSpec spec = spec_of(initial[i]);
      if (entry.role == "param") {
        param_names_.push_back(entry.name);
        state.push_back(b.param(entry.name, spec));
      } else {
        state.push_back(b.state(entry.name, spec));
      }
    }
    call.example_state = initial;
    b.output("loss", ops::aoti_training_step(b, std::move(call), inputs, state));
    return b.build();
  }

  std::string skip_reason_;
};

class AotiWorkload final : public bench::CaseWorkload<AotiCase> {
 public:
  using CaseWorkload::CaseWorkload;
  void preflight(const CaseSpec& spec) const override {
    const std::string file = bench::checked_model_file(spec, "an AOTInductor package (.pt2)");
    if (spec.mode == "train") bench::checked_model_file(spec, "a training step's state (TorchScript)", "state");
    if (!ops::aoti_supported()) return;
    const auto metadata = package_metadata(spec, file);
    check_package_kind(spec, file, metadata);
    check_recorded_inputs(spec, file, metadata);
  }

  // The loader unpacks the package: at most its zip entries' sizes (without the loader: nothing).
  std::vector<UnpackNeed> unpack_needs(const CaseSpec& spec) const override {
    if (!ops::aoti_supported()) return {};
    const std::string file = bench::param_string(spec, "path");
    std::uint64_t bytes = 0;
    try {
      bytes = unpacked_zip_bytes(file);
    } catch (const InputError&) {
      return {};  // no package there: preflight names the file and the problem
    }
    return {UnpackNeed{"AOTInductor package", file, ops::kAotiUnpackDirectory, bytes,
                       fmt::format("LibTorch's loader unpacks under {} whatever TMPDIR says: free room there, or "
                                   "mount a larger file system on it",
                                   ops::kAotiUnpackDirectory)}};
  }

  void release_kept() const override { ops::release_kept_aoti_package(); }
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD_AS(AotiWorkload, aoti_descriptor, bench::Grad::kOff);

}  // namespace graphbench
