#include "graphbench/engine/ops/aoti_package.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/shared_load_cache.h"
#include "graphbench/engine/ops/op_helpers.h"

#include <fmt/format.h>
#include <torch/version.h>

#include <filesystem>

#if defined(__has_include)
#if __has_include(<torch/csrc/inductor/aoti_package/model_package_loader.h>)
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#define GRAPHBENCH_AOTI_LOADER 1
#endif
#endif

#if defined(GRAPHBENCH_AOTI_LOADER) && defined(GRAPHBENCH_WITH_CUDA)
#include <c10/cuda/CUDAStream.h>
#endif

namespace graphbench::ops {

namespace {

SharedLoadCache<AotiPackage>& package_cache() {
  static SharedLoadCache<AotiPackage> cache;
  return cache;
}

}  // namespace

void release_kept_aoti_package() { package_cache().release_kept(); }

#ifdef GRAPHBENCH_AOTI_LOADER

bool aoti_supported() { return true; }
std::string aoti_unsupported_reason() { return ""; }

struct AotiPackage::Impl {
  torch::inductor::AOTIModelPackageLoader loader;
  at::Device device;
  Impl(const std::string& path, at::Device d, const std::string& model)
      : loader(path, model, /*run_single_threaded=*/true, /*num_runners=*/1, d.has_index() ? d.index() : -1),
        device(d) {}
};

std::shared_ptr<AotiPackage> AotiPackage::load(const std::string& path, at::Device device, const std::string& model) {
  std::error_code ec;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
  const std::string key = (ec ? std::filesystem::path(path) : canonical).string() + "|" + device.str() + "|" + model;
  return package_cache().get(key, [&] {
    return std::shared_ptr<AotiPackage>(new AotiPackage(std::make_unique<Impl>(path, device, model)));
  });
}

std::map<std::string, std::string> AotiPackage::read_metadata(const std::string& path) {
  const auto metadata = torch::inductor::AOTIModelPackageLoader::load_metadata_from_package(path, "model");
  return std::map<std::string, std::string>(metadata.begin(), metadata.end());
}

std::vector<at::Tensor> AotiPackage::run(const std::vector<at::Tensor>& inputs) {
  void* stream = nullptr;  // the runner's default: the current stream of its device
#ifdef GRAPHBENCH_WITH_CUDA
  if (impl_->device.is_cuda()) stream = c10::cuda::getCurrentCUDAStream(impl_->device.index()).stream();
#endif
  return impl_->loader.run(inputs, stream);
}

#else

bool aoti_supported() { return false; }
std::string aoti_unsupported_reason() {
  return fmt::format("this graphbench was built against LibTorch {}, which has no AOTInductor package loader "
                     "(torch/csrc/inductor/aoti_package/model_package_loader.h, LibTorch 2.6 and later)",
                     TORCH_VERSION);
}

struct AotiPackage::Impl {};

std::shared_ptr<AotiPackage> AotiPackage::load(const std::string&, at::Device, const std::string&) {
  throw EngineError(aoti_unsupported_reason());
}

std::map<std::string, std::string> AotiPackage::read_metadata(const std::string&) {
  throw EngineError(aoti_unsupported_reason());
}

std::vector<at::Tensor> AotiPackage::run(const std::vector<at::Tensor>&) { throw EngineError(aoti_unsupported_reason()); }

#endif

AotiPackage::AotiPackage(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AotiPackage::~AotiPackage() = default;

namespace {

class AotiCallOp final : public Op {
 public:
  AotiCallOp(std::shared_ptr<AotiPackage> package, std::vector<at::Tensor> examples, std::string label)
      : package_(std::move(package)), examples_(std::move(examples)), label_(std::move(label)) {
    for (const auto& example : examples_) example_specs_.push_back(spec_of(example));
  }

  std::string signature() const override { return fmt::format("aoti({})", label_); }
  bool differentiable() const override { return false; }

  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    if (in != example_specs_) {
      throw_op_error(*this, fmt::format("the package runs at its declared inputs ({}) only, got {}",
                                        to_string(example_specs_), to_string(in)));
    }
    if (output_specs_.empty()) {
      output_specs_ = ops_detail::output_specs_of_call([&] { return package_->run(examples_); }, "package", label_,
                                                       example_specs_);
    }
    return output_specs_;
  }

  void run(OpIO& io) const override {
    std::vector<at::Tensor> outputs = package_->run(io.in_list(0, io.num_inputs()));
    if (outputs.size() != io.num_outputs()) {
      throw EngineError(fmt::format("package {} returned {} tensors, {} when the program was built", label_,
                                    outputs.size(), io.num_outputs()));
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) io.out(i) = std::move(outputs[i]);
  }

 private:
  std::shared_ptr<AotiPackage> package_;
  std::vector<at::Tensor> examples_;
  std::vector<TensorSpec> example_specs_;
  std::string label_;
  mutable std::vector<TensorSpec> output_specs_;  // from the first infer()
};

}  // namespace

std::vector<ValueId> aoti_call(Builder& b, std::shared_ptr<AotiPackage> package, std::vector<at::Tensor> example_inputs,
                               const std::string& label, const std::vector<ValueId>& inputs) {
  return b.add(std::make_shared<AotiCallOp>(std::move(package), std::move(example_inputs), label), inputs);
}

}  // namespace graphbench::ops
