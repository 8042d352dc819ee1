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

class AotiCallOp final : public ops_detail::BlackBoxOp {
 public:
  AotiCallOp(std::shared_ptr<AotiPackage> package, std::vector<at::Tensor> examples, std::string label)
      : BlackBoxOp("package", std::move(label), std::move(examples)), package_(std::move(package)) {}

  std::string signature() const override { return fmt::format("aoti({})", label_); }
  bool differentiable() const override { return false; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    return outputs_at(in, [&] { return package_->run(examples_); });
  }
  void run(OpIO& io) const override { set_outputs(io, package_->run(io.in_list(0, io.num_inputs()))); }

 private:
  std::shared_ptr<AotiPackage> package_;
};

}  // namespace

std::vector<ValueId> aoti_call(Builder& b, std::shared_ptr<AotiPackage> package, std::vector<at::Tensor> example_inputs,
                               const std::string& label, const std::vector<ValueId>& inputs) {
  return b.add(std::make_shared<AotiCallOp>(std::move(package), std::move(example_inputs), label), inputs);
}

}  // namespace graphbench::ops
