// The gradient all-reduce of data-parallel training, as an op of the engine that runs after the
// backward pass (overlapped_backward.h has the one that runs during it). It goes between the
// backward op and the optimizer update, so that the whole step stays one program (and one CUDA
// graph, the all-reduce included):
//
//   auto grads = ops::backward(b, loss, params);
//   grads = parallel::average_gradients(b, grads, communicator);
//   ops::sgd_step(b, params, grads, sgd);
//
// The gradients are averaged bucket by bucket (gradient_buckets.h); the averaged gradients are
// views of the buckets. Every rank must build the same program.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/gradient_sync/gradient_buckets.h"
#include "graphbench/engine/plan/builder.h"
#include "graphbench/engine/runner/data_parallel.h"
#include "graphbench/core/suite/suite_spec.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace graphbench::parallel {

struct GradientAverageOptions {
  std::size_t bucket_bytes = kDefaultBucketBytes;
  bool bfloat16 = false;  // compressed: cast, averaged and cast back (DDP's bf16_compress_hook)
  GradientTransport transport = GradientTransport::kCollective;
};

// A case's "grad_dtype", "grad_bucket_mb" and "grad_transport" ("copy-engine" or else the collective:
// resolve "auto" first).
GradientAverageOptions average_options(const GradientSyncSpec& spec);

// "grad_transport" as it runs among `communicator`'s ranks; "auto" takes what was measured to pay
// on GPUs of one node (docs/distributed.md, "Choosing the transport"): "copy-engine" for two ranks
// whose GPUs reach each other, in a step with gradient chunks and the overlap on; else
// "symmetric-memory" where this build has it and each rank is a process of its own; else
// "collective" (and always across nodes, on the CPU, or for one rank). Any other value as it is.
// Every rank, in the same order: "auto" may ask the ranks.
std::string resolve_transport(const GradientSyncSpec& spec, Communicator& communicator);

// Returns the averaged gradients, one per input gradient, in order. `order`: the gradients (indices
// into `grads`) in the order they are bucketed (a step's backward order); empty: as given. `log`
// (may be null) gets the order and the buckets after every run.
std::vector<ValueId> average_gradients(Builder& b, const std::vector<ValueId>& grads,
                                       std::shared_ptr<Communicator> communicator,
                                       const GradientAverageOptions& options = {},
                                       const std::vector<std::size_t>& order = {},
                                       std::shared_ptr<GradientBucketLog> log = nullptr);

}  // namespace graphbench::parallel
