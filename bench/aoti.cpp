// aoti: your own model as an AOTInductor package (.pt2, torch._inductor.aoti_compile_and_package),
// run with torch::inductor::AOTIModelPackageLoader as one op of an engine program; inference.
//   eager  the package's run, call by call
//   graph  that run captured in a CUDA graph and replayed (after a warm-up: the loader loads its
//          kernels on the first run); a failed capture is recorded and the variant runs eagerly
// Built only where LibTorch has the loader (2.6 and later); elsewhere every variant is skipped
// with the reason. Packages written by scripts/export_model.py record their inputs, and a case
// whose inputs differ is refused before anything runs (a package does not check its inputs).
#include "common/sweep_axes.h"
#include "common/case_helpers.h"
#include "common/case_workload.h"
#include "models/model_case.h"

#include "graphbench/core/errors.h"
#include "graphbench/exec/error_text.h"
#include "graphbench/ops/aoti_package.h"
#include "graphbench/plan/builder.h"
#include "graphbench/runner/engine_runner.h"

#include <fmt/format.h>

namespace graphbench {

namespace {

// The metadata key under which scripts/export_model.py records a package's inputs, as
// [{"shape": [...], "dtype": "..."}].
const char* const kInputsMetadataKey = "graphbench_inputs";
// ... and the bytes a step must read (parameters and KV cache), as a decimal number.
const char* const kReadBytesMetadataKey = "graphbench_read_bytes";

WorkloadDescriptor aoti_descriptor() {
  WorkloadDescriptor d;
  d.name = "aoti";
  d.summary = "your own model: an AOTInductor package (.pt2, AOTIModelPackageLoader), inference";
  d.modes = {"inference"};
  d.kinds = {"benchmark"};
  d.variants = {Variant::named("eager"), Variant::named("graph")};
  d.dtypes = {"float32", "float16", "bfloat16"};
  d.params = {bench::model_path_param("the AOTInductor package (.pt2), relative to the suite file"),
              bench::model_inputs_param()};
  for (auto& p : bench::tolerance_params()) d.params.push_back(std::move(p));
  d.params.push_back(bench::read_bytes_param());
  d.check = [](const nlohmann::json& params, const std::string&) { return bench::check_model_inputs(params); };
  d.sweep_axes = bench::model_sweep_axes();
  return d;
}

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
                                       "package runs only at the shapes it was compiled for (-1: any size)",
                                       file, recorded.dump(), given.dump(), spec.name));
  }
}

// The bytes a step must read as scripts/export_model.py recorded them, or 0 (none recorded).
double recorded_read_bytes(const std::map<std::string, std::string>& metadata) {
  const auto found = metadata.find(kReadBytesMetadataKey);
  if (found == metadata.end()) return 0.0;
  try {
    const double bytes = std::stod(found->second);
    return bytes > 0.0 ? bytes : 0.0;
  } catch (const std::exception&) {
    return 0.0;
  }
}

class AotiCase final : public CaseInstance {
 public:
  AotiCase(const CaseSpec& spec, const CaseContext& context)
      : device_(context.device), tolerance_(bench::model_tolerance(spec)), read_bytes_(bench::model_read_bytes(spec)) {
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
    if (read_bytes_ <= 0.0) read_bytes_ = recorded_read_bytes(metadata);
    inputs_ = bench::make_model_inputs(bench::read_model_inputs(spec), device_);
    auto package = ops::AotiPackage::load(file, device_);
    Builder b("aoti_forward");
    std::vector<ValueId> ids;
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      const std::string name = fmt::format("input{}", i);
      ids.push_back(b.input(name, spec_of(inputs_[i])));
      feed_[name] = inputs_[i];
    }
    const auto outputs = ops::aoti_call(b, std::move(package), inputs_, file, ids);
    for (std::size_t i = 0; i < outputs.size(); ++i) b.output(fmt::format("output{}", i), outputs[i]);
    program_ = b.build();
  }

  std::string skip_reason(const Variant&) const override { return skip_reason_; }

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool) override {
    if (!program_) throw EngineError("aoti: " + skip_reason_);
    EngineRunnerConfig config;
    config.program = program_;
    config.executor = bench::executor_for(variant);
    config.policy = Policy::inference();
    config.options.warmup_steps = 3;
    config.options.fallback_to_eager = true;
    config.feed = feed_;
    return std::make_unique<EngineRunner>(std::move(config));
  }

  // A black box: its roofline is what the case says it must read, or what its exporter recorded.
  StepCost cost() const override { return {read_bytes_, 0.0}; }
  double rtol(const Variant&) const override { return tolerance_.rtol; }
  double atol(const Variant&) const override { return tolerance_.atol; }

 private:
  at::Device device_;
  bench::Tolerance tolerance_;
  double read_bytes_ = 0.0;
  std::string skip_reason_;
  std::vector<at::Tensor> inputs_;
  Feed feed_;
  std::shared_ptr<const Program> program_;
};

class AotiWorkload final : public bench::CaseWorkload<AotiCase> {
 public:
  using CaseWorkload::CaseWorkload;
  void preflight(const CaseSpec& spec) const override {
    const std::string file = bench::checked_model_file(spec, "an AOTInductor package (.pt2)");
    if (ops::aoti_supported()) check_recorded_inputs(spec, file, package_metadata(spec, file));
  }
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD_AS(AotiWorkload, aoti_descriptor, bench::Grad::kOff);

}  // namespace graphbench
