// The bucketing tests' perceptron (parallel_test_util.h) with fc1.weight's gradient computed and
// all-reduced in row chunks (parallel/gradient_sync/row_chunked_linear.h), for the gradient-chunk tests on the
// CPU and their [cuda] test.
#pragma once

#include "parallel/parallel_test_util.h"
#include "graphbench/parallel/gradient_sync/chunked_params.h"
#include "graphbench/parallel/gradient_sync/row_chunked_linear.h"

namespace graphbench::dist_test {

// Rows of fc1.weight [8, 6] float32 are 24 bytes: a cap of 48 bytes makes four chunks of two rows.
// As a bucket cap too, every chunk is a bucket of its own (as in configs/ddp.json's large case with
// --grad-chunk-mb 8: both caps 8 MiB).
constexpr std::size_t kTwoRowChunks = 48;

// How the chunked step all-reduces: chunk by chunk as `sync` says (the workloads' way), or its
// chunks' gradients joined first and the whole fc1.weight gradient all-reduced after backward (the
// same numbers without chunked all-reduces: the reference).
enum class ChunkedAllReduce { kByChunk, kJoinedFirst };

// The perceptron's step with fc1 computed by row chunks of at most `chunk_bytes`; SGD with momentum
// 0.5 on the whole params. Outputs "loss", then the params' (averaged) gradients in param order.
inline std::shared_ptr<const Program> chunked_mlp_step(const Mlp& m,
                                                       const std::shared_ptr<parallel::Communicator>& communicator,
                                                       const StepSync& sync, std::size_t chunk_bytes,
                                                       ChunkedAllReduce how = ChunkedAllReduce::kByChunk) {
  Builder b("mlp_chunked_data_parallel");
  const MlpExternals e = declare_mlp(b, m);
  const parallel::RowChunkedWeight fc1 = parallel::chunk_weight_rows(b, e.params[0], chunk_bytes);
  ValueId h = ops::relu(b, parallel::row_chunked_linear(b, e.x, fc1, e.params[1]));
  h = ops::relu(b, ops::linear(b, h, e.params[2], e.params[3]));
  ValueId loss = ops::mse_loss(b, ops::linear(b, h, e.params[4], e.params[5]), e.target);
  parallel::ChunkedParams params;
  params.add(fc1);
  for (std::size_t i = 1; i < e.params.size(); ++i) params.add(e.params[i]);
  std::vector<ValueId> grads;
  if (how == ChunkedAllReduce::kByChunk) {
    grads = params.join(b, synced_gradients(b, loss, params.differentiated(), communicator, sync));
  } else {
    grads = params.join(b, ops::backward(b, loss, params.differentiated()));
    if (communicator) grads = parallel::average_gradients(b, grads, communicator, sync.options, {}, sync.log);
  }
  return finish_mlp_step(b, loss, params.params(), grads, /*momentum=*/0.5);
}

}  // namespace graphbench::dist_test
