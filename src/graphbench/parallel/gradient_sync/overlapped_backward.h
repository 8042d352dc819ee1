// The backward pass and the gradient all-reduce as one op, overlapped as DistributedDataParallel
// overlaps them: the gradients are bucketed in the order backward produces them, and each
// bucket's all-reduce starts as soon as its last gradient is ready, while backward goes on with
// the layers before it (on CUDA on a side stream forked from the current one, joined back before
// the op returns: inside a CUDA graph capture the fork, the collectives and the join are captured
// too). It replaces ops::backward followed by average_gradients:
//
//   auto grads = parallel::backward_and_average(b, loss, params, communicator, options, log);
//   ops::sgd_step(b, params, grads, sgd);
//
// How: LibTorch runs the backward pass (torch::autograd::backward with the params as inputs), and
// a post hook on each param's gradient accumulator takes the gradient from `.grad` as soon as the
// accumulator has it (`.grad` is left empty: the gradients stay values of the program). The
// averaging is exact as in average_gradients: each bucket summed, then divided by the world size.
// Params that lie one after another in one tensor's memory (a weight's row chunks,
// row_chunked_linear.h) get their averages one after another too (gradient_buckets.h, joined
// ranges), so that joining them (chunked_params.h) copies nothing.
//
// The backward order is learnt on the op's first run: that run averages after the backward pass,
// in the order it saw, and checks that every rank saw the same order (an all-reduce: the first run
// must not be captured; the graph executor's warm-up runs first). Every later run overlaps.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/engine/plan/builder.h"
#include "graphbench/engine/runner/data_parallel.h"

#include <memory>
#include <vector>

namespace graphbench::parallel {

// Returns one averaged gradient per param, in order. `log` (may be null) gets the order and the
// buckets after every run.
std::vector<ValueId> backward_and_average(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                          std::shared_ptr<Communicator> communicator,
                                          const GradientAverageOptions& options,
                                          std::shared_ptr<GradientBucketLog> log = nullptr);

// What the workloads call between their loss and their optimizer: the gradients of `loss`, averaged
// over setup.communicator's ranks as setup.gradient_sync says (overlapped with the backward pass or
// after it); with no communicator, the gradients of one process (ops::backward).
std::vector<ValueId> step_gradients(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                    const DataParallelSetup& setup);

}  // namespace graphbench::parallel
