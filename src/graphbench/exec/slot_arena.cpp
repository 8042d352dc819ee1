#include "graphbench/exec/slot_arena.h"

#include <c10/core/StorageImpl.h>

#include <map>

namespace graphbench {

namespace {

std::int64_t aligned(std::int64_t bytes) { return (bytes + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment; }

std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<std::int64_t>(shape[i], 1);
  return strides;
}

}  // namespace

std::vector<at::Tensor> allocate_arena(const std::vector<TensorSpec>& specs) {
  // Byte offset of every spec within its device's block, and each block's size.
  std::vector<std::int64_t> offsets(specs.size(), 0);
  std::map<at::Device, std::int64_t, bool (*)(const at::Device&, const at::Device&)> sizes(
      [](const at::Device& a, const at::Device& b) { return a.str() < b.str(); });
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const TensorSpec& spec = specs[i];
    std::int64_t& size = sizes[spec.device];
    offsets[i] = size;
    size += aligned(spec.numel() * static_cast<std::int64_t>(c10::elementSize(spec.dtype)));
  }
  std::map<at::Device, c10::Storage, bool (*)(const at::Device&, const at::Device&)> blocks(
      [](const at::Device& a, const at::Device& b) { return a.str() < b.str(); });
  for (const auto& [device, size] : sizes) {
    const at::Tensor block = at::empty({std::max<std::int64_t>(size, 1)}, at::TensorOptions().dtype(at::kByte).device(device));
    c10::Storage storage = block.storage();
    storage.unsafeGetStorageImpl()->set_resizable(false);
    blocks.emplace(device, std::move(storage));
  }
  std::vector<at::Tensor> tensors;
  tensors.reserve(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const TensorSpec& spec = specs[i];
    const std::int64_t element = static_cast<std::int64_t>(c10::elementSize(spec.dtype));
    at::Tensor t = at::empty({0}, spec.options());
    t.set_(blocks.at(spec.device), offsets[i] / element, spec.shape, contiguous_strides(spec.shape));
    tensors.push_back(std::move(t));
  }
  return tensors;
}

}  // namespace graphbench
