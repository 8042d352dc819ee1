#include "graphbench/engine/exec/model_store.h"

#include "graphbench/core/base/errors.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

namespace graphbench {

at::Tensor& ModelStore::at(const std::string& name) {
  auto it = tensors_.find(name);
  if (it == tensors_.end()) throw EngineError(fmt::format("model store has no \"{}\"", name));
  return it->second;
}

const at::Tensor& ModelStore::at(const std::string& name) const {
  return const_cast<ModelStore*>(this)->at(name);
}

void ModelStore::set(const std::string& name, at::Tensor tensor) { tensors_[name] = std::move(tensor); }

std::vector<std::string> ModelStore::names() const {
  std::vector<std::string> out;
  for (const auto& [name, tensor] : tensors_) out.push_back(name);
  return out;
}

ModelStore ModelStore::clone() const {
  at::NoGradGuard no_grad;
  ModelStore copy;
  for (const auto& [name, tensor] : tensors_) {
    at::Tensor t = tensor.detach().clone();
    t.set_requires_grad(tensor.requires_grad());
    copy.tensors_[name] = t;
  }
  return copy;
}

void ModelStore::copy_values_from(const ModelStore& other) {
  at::NoGradGuard no_grad;
  for (const auto& [name, tensor] : other.tensors_) at(name).copy_(tensor);
}

}  // namespace graphbench
