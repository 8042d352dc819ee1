#include "graphbench/parallel/communication/symmetric_all_reduce.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/communication/c10d_compat.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <fmt/format.h>

#include <optional>
#include <vector>

namespace graphbench::parallel {

std::string symmetric_all_reduce_unavailable(at::Device device) {
#ifdef GRAPHBENCH_SYMMETRIC_MEMORY
  if (!device.is_cuda()) return "it sums in GPU memory, and this run is on the " + device.str();
  return "";
#else
  (void)device;
  return "this build has no symmetric memory (it needs LibTorch 2.5 or later built with CUDA and NCCL)";
#endif
}

#ifdef GRAPHBENCH_SYMMETRIC_MEMORY

struct SymmetricAllReduce::Impl {
  std::string group;
  at::Tensor block;  // bytes
  c10::intrusive_ptr<c10d::symmetric_memory::SymmetricMemory> mapped;
  std::optional<c10::OperatorHandle> two_shot;  // no default constructor
};

SymmetricAllReduce::SymmetricAllReduce(std::shared_ptr<Communicator> communicator, std::size_t bytes)
    : impl_(std::make_unique<Impl>()) {
  const std::string why = symmetric_all_reduce_unavailable(communicator->device());
  if (!why.empty()) throw DistributedError("the symmetric-memory all-reduce: " + why);
  if (!communicator->node_layout().one_node()) {
    throw DistributedError(fmt::format("the symmetric-memory all-reduce: the ranks span {}, and it reaches the GPUs "
                                       "of one node only (grad_transport auto takes the collective there)",
                                       communicator->node_layout().describe()));
  }
  // A group of its own per block: LibTorch keeps a group's set-up for the process's life. Every
  // rank makes its blocks in the same order, so the count names the same group on all of them.
  static int blocks = 0;
  impl_->group = fmt::format("graphbench-grads-{}", blocks++);
  try {
    communicator->add_symmetric_memory_group(impl_->group);
    impl_->block = c10d::symmetric_memory::empty_strided_p2p({static_cast<std::int64_t>(bytes)}, {1}, at::kByte,
                                                            communicator->device(), impl_->group, std::nullopt);
    impl_->mapped = c10d::symmetric_memory::rendezvous(impl_->block, impl_->group);
    impl_->two_shot = c10::Dispatcher::singleton().findSchemaOrThrow("symm_mem::two_shot_all_reduce_", "");
  } catch (const DistributedError&) {
    throw;
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("rank {}: the symmetric-memory all-reduce could not map its block of {} bytes: {}",
                                       communicator->rank(), bytes, e.what()));
  }
}

SymmetricAllReduce::~SymmetricAllReduce() = default;

at::Tensor SymmetricAllReduce::slot(std::size_t offset, std::int64_t numel, at::ScalarType dtype) const {
  const auto bytes = static_cast<std::int64_t>(c10::elementSize(dtype)) * numel;
  return impl_->block.narrow(0, static_cast<std::int64_t>(offset), bytes).view(dtype);
}

void SymmetricAllReduce::sum_(at::Tensor& slot) {
  // Called boxed: the op's C++ signature (its string arguments' type) differs between versions.
  std::vector<c10::IValue> stack{slot, std::string("sum"), impl_->group};
  impl_->two_shot->callBoxed(&stack);
}

#else

struct SymmetricAllReduce::Impl {};

SymmetricAllReduce::SymmetricAllReduce(std::shared_ptr<Communicator> communicator, std::size_t) {
  throw DistributedError("the symmetric-memory all-reduce: " + symmetric_all_reduce_unavailable(communicator->device()));
}
SymmetricAllReduce::~SymmetricAllReduce() = default;
at::Tensor SymmetricAllReduce::slot(std::size_t, std::int64_t, at::ScalarType) const { return {}; }
void SymmetricAllReduce::sum_(at::Tensor&) {}

#endif

}  // namespace graphbench::parallel
