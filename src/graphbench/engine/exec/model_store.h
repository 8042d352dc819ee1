// Params and optimizer state by name, outliving programs: what training updates, evaluation reads.
#pragma once

#include <ATen/ATen.h>

#include <map>
#include <string>
#include <vector>

namespace graphbench {

class ModelStore {
 public:
  bool contains(const std::string& name) const { return tensors_.count(name) != 0; }
  // Throws EngineError naming the missing entry.
  at::Tensor& at(const std::string& name);
  const at::Tensor& at(const std::string& name) const;
  // Adds or replaces (replacing a captured buffer is caught before the next replay).
  void set(const std::string& name, at::Tensor tensor);
  std::vector<std::string> names() const;
  std::size_t size() const { return tensors_.size(); }

  // An independent copy (new buffers, same values), e.g. one per variant of a case.
  ModelStore clone() const;
  // Copies every value of `other` into this store's existing buffers (pointers unchanged).
  void copy_values_from(const ModelStore& other);

 private:
  std::map<std::string, at::Tensor> tensors_;
};

}  // namespace graphbench
