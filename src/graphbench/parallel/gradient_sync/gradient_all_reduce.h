// The gradient all-reduce of data-parallel training as an engine op between the backward op and the
// optimizer update, so the whole step stays one program and one CUDA graph (overlapped_backward.h
// runs it during backward). Averaged bucket by bucket (gradient_buckets.h); every rank must build
// the same program:
//   auto grads = parallel::average_gradients(b, ops::backward(b, loss, params), communicator);
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

// A case's "grad_dtype", "grad_bucket_mb" and "grad_transport" (resolve "auto" first).
GradientAverageOptions average_options(const GradientSyncSpec& spec);

// "grad_transport" as it runs among the ranks (every rank calls it: "auto" may ask them). "auto"
// takes what was measured to pay (docs/distributed.md, "Choosing the transport"): "copy-engine" for
// two peer GPUs with chunks and overlap; else "symmetric-memory" where built and each rank is a
// process; else "collective" (always across nodes, on the CPU, or for one rank).
std::string resolve_transport(const GradientSyncSpec& spec, Communicator& communicator);

// The averaged gradients, in order. `order`: the bucketing order (empty: as given); `log` gets the
// order and the buckets after every run.
std::vector<ValueId> average_gradients(Builder& b, const std::vector<ValueId>& grads,
                                       std::shared_ptr<Communicator> communicator,
                                       const GradientAverageOptions& options = {},
                                       const std::vector<std::size_t>& order = {},
                                       std::shared_ptr<GradientBucketLog> log = nullptr);

}  // namespace graphbench::parallel
