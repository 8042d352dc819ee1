// The backward pass and the gradient all-reduce as one op, overlapped as DistributedDataParallel does:
// each bucket's all-reduce starts once its last gradient is ready, while backward goes on (on CUDA on
// a side stream joined back before the op returns, so a capture holds all of it). It replaces
// ops::backward followed by average_gradients. A post hook on each param's gradient accumulator
// takes the gradient as soon as it is there (`.grad` stays empty). Adjacent row chunks of one
// weight are averaged into one buffer, so joining them copies nothing. The backward order is learnt
// on the first run (averaging after backward, checking every rank saw the same order: an all-reduce,
// so the first run must not be captured); every later run overlaps.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/engine/plan/builder.h"
#include "graphbench/engine/runner/data_parallel.h"

#include <memory>
#include <vector>

namespace graphbench::parallel {

// One averaged gradient per param, in order; `log` gets the order and the buckets after every run.
std::vector<ValueId> backward_and_average(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                          std::shared_ptr<Communicator> communicator,
                                          const GradientAverageOptions& options,
                                          std::shared_ptr<GradientBucketLog> log = nullptr);

// What workloads call between loss and optimizer: the gradients averaged as setup.gradient_sync
// says (overlapped or after backward); with no communicator, ops::backward.
std::vector<ValueId> step_gradients(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                    const DataParallelSetup& setup);

}  // namespace graphbench::parallel
