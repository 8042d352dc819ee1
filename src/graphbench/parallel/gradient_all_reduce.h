// The gradient all-reduce of data-parallel training, as an op of the engine. It goes between the
// backward op and the optimizer update, so that the whole step stays one program (and one CUDA
// graph, the all-reduce included):
//
//   auto grads = ops::backward(b, loss, params);
//   grads = parallel::average_gradients(b, grads, communicator);
//   ops::sgd_step(b, params, grads, sgd);
//
// The gradients are packed into flat buckets (consecutive gradients of one dtype and device, at
// most `bucket_bytes` each, as DistributedDataParallel does), each bucket is summed over the ranks
// by one all-reduce on the current stream and divided by the world size, and the averaged
// gradients are views of the buckets. Every rank must build the same program.
#pragma once

#include "graphbench/parallel/communicator.h"
#include "graphbench/plan/builder.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace graphbench::parallel {

// DistributedDataParallel's default bucket cap.
constexpr std::size_t kDefaultBucketBytes = std::size_t{25} << 20;

// Indices of `grads` per bucket, in order.
std::vector<std::vector<std::size_t>> plan_buckets(const std::vector<TensorSpec>& grads, std::size_t bucket_bytes);

// Returns the averaged gradients, one per input gradient, in order.
std::vector<ValueId> average_gradients(Builder& b, const std::vector<ValueId>& grads,
                                       std::shared_ptr<Communicator> communicator,
                                       std::size_t bucket_bytes = kDefaultBucketBytes);

}  // namespace graphbench::parallel
