// An AOTInductor package (.pt2, from torch._inductor.aoti_compile_and_package) as one op of a
// program: inputs -> the package's run -> outputs (a model's forward; a whole training step's
// package runs as engine/ops/aoti_training_step.h).
//
// The loader runs single-threaded (run_single_threaded): its default runner hands each call to a
// pool of model instances with events between threads, which a CUDA graph capture cannot follow.
// It loads its kernels on the first run, so a capture must come after a warm-up (the graph
// executor warms up first). Compiled only where LibTorch has the loader
// (torch/csrc/inductor/aoti_package/model_package_loader.h, LibTorch 2.6 and later); elsewhere
// aoti_supported() is false and loading throws EngineError with the reason.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/engine/plan/builder.h"

#include <ATen/ATen.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace graphbench::ops {

bool aoti_supported();
// Why packages cannot be run by this build ("" when they can).
std::string aoti_unsupported_reason();

// Where LibTorch's loader unpacks a package: a new directory under /tmp on every load, removed
// when the loader is destroyed. The loader names it with mkdtemp("/tmp/XXXXXX") and reads no TMPDIR
// (torch/csrc/inductor/aoti_package/model_package_loader.cpp, create_temp_dir, on all but Windows).
inline constexpr const char* kAotiUnpackDirectory = "/tmp";

class AotiPackage : NonCopyable {
 public:
  // The package's model for `device` (its index, or the current device of its type), loaded once
  // per process while any case holds it: every case of the same file (by its canonical path) and
  // device shares one loader, and the last one loaded is kept for the next case until
  // release_kept_aoti_package() or until another package loads (core/base/shared_load_cache.h). The cases
  // sharing it run one at a time, each call on its runner's current stream.
  // `model` names one of the package's models (aoti_compile_and_package writes one, "model";
  // torch._inductor.package.package_aoti several, by name).
  static std::shared_ptr<AotiPackage> load(const std::string& path, at::Device device,
                                           const std::string& model = "model");
  // The metadata the package was compiled with (AOTI_DEVICE_KEY, and any the exporter added),
  // read without loading the model.
  static std::map<std::string, std::string> read_metadata(const std::string& path);

  ~AotiPackage();

  // One call on the current stream.
  std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs);

 private:
  struct Impl;
  explicit AotiPackage(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Gives back the package kept for the next case (cases holding it keep theirs).
void release_kept_aoti_package();

// Outputs of `package` run on `inputs`; `example_inputs` (one per input) are what infer() runs it
// on to learn the output specs, and the op runs only at their specs.
std::vector<ValueId> aoti_call(Builder& b, std::shared_ptr<AotiPackage> package, std::vector<at::Tensor> example_inputs,
                               const std::string& label, const std::vector<ValueId>& inputs);

}  // namespace graphbench::ops
