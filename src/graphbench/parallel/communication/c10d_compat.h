// The c10d headers and the differences between the LibTorch versions graphbench builds against
// (Debian's 1.13, where process groups derive from ProcessGroup; 2.x, where they are Backends and
// collectives may run on the caller's stream). Included by parallel/*.cpp only.
#pragma once

#ifdef GRAPHBENCH_WITH_DISTRIBUTED

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/version.h>
#ifdef GRAPHBENCH_DIST_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef GRAPHBENCH_DIST_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

// LibTorch's symmetric memory (2.5 and later, built with CUDA): the symmetric-memory all-reduce.
#if defined(GRAPHBENCH_WITH_CUDA) && defined(GRAPHBENCH_DIST_NCCL) && \
    __has_include(<torch/csrc/distributed/c10d/symm_mem/SymmetricMemory.hpp>)
#include <torch/csrc/distributed/c10d/GroupRegistry.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/symm_mem/SymmetricMemory.hpp>
#define GRAPHBENCH_SYMMETRIC_MEMORY 1
#endif

#include <type_traits>
#include <utility>

namespace graphbench::parallel::c10d_compat {

#if TORCH_VERSION_MAJOR >= 2
using Group = c10d::Backend;  // ProcessGroupNCCL and ProcessGroupGloo are Backends since 2.0
#else
using Group = c10d::ProcessGroup;
#endif
using GroupPtr = c10::intrusive_ptr<Group>;

// LibTorch 2.7 and later: collectives take `asyncOp`; false runs them on the current stream.
template <typename Options, typename = void>
struct HasAsyncOp : std::false_type {};
template <typename Options>
struct HasAsyncOp<Options, std::void_t<decltype(std::declval<Options&>().asyncOp)>> : std::true_type {};

template <typename Options>
Options on_current_stream(Options options) {
  if constexpr (HasAsyncOp<Options>::value) options.asyncOp = false;
  return options;
}

// Waits for a collective's work. A collective run on the current stream (asyncOp false, LibTorch
// 2.7 and later) may return no work at all: it is queued on the stream already, nothing to wait for.
inline void wait(const c10::intrusive_ptr<c10d::Work>& work) {
  if (work) work->wait();
}

}  // namespace graphbench::parallel::c10d_compat

#endif  // GRAPHBENCH_WITH_DISTRIBUTED
