// An AOTInductor package (.pt2) as one op. The loader runs single-threaded (its default runner hands
// calls between threads, which a capture cannot follow) and loads its kernels on the first run, so
// capture after a warm-up. Only with LibTorch 2.6+ (else aoti_supported() is false).
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

// Where the loader unpacks a package: mkdtemp("/tmp/XXXXXX"), no TMPDIR (model_package_loader.cpp).
inline constexpr const char* kAotiUnpackDirectory = "/tmp";

class AotiPackage : NonCopyable {
 public:
  // The package's model `model` for `device`, loaded once per file and device while any case holds
  // it; the last one loaded is kept for the next case (core/base/shared_load_cache.h).
  static std::shared_ptr<AotiPackage> load(const std::string& path, at::Device device,
                                           const std::string& model = "model");
  // The package's metadata (AOTI_DEVICE_KEY, the exporter's), read without loading the model.
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

// Outputs of `package` run on `inputs`, at the specs of `example_inputs` (run once to learn the outputs).
std::vector<ValueId> aoti_call(Builder& b, std::shared_ptr<AotiPackage> package, std::vector<at::Tensor> example_inputs,
                               const std::string& label, const std::vector<ValueId>& inputs);

}  // namespace graphbench::ops
