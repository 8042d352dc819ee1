// Shared helpers of the engine tests (tests/engine/ and tests/cuda/): small programs built with the
// Builder, seeded data, a store with initial params, and a way to read an EngineError's message.
#pragma once

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/engine.h"
#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/exec/policy.h"
#include "graphbench/engine/ops/autograd.h"
#include "graphbench/engine/ops/elementwise.h"
#include "graphbench/engine/ops/nn.h"
#include "graphbench/engine/ops/optimizers.h"
#include "graphbench/engine/plan/builder.h"
#include "support/catch.h"
#include "support/error_of.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

// A substring matcher under both Catch2 2.x (Catch::Contains) and 3.x (ContainsSubstring).
#if GRAPHBENCH_CATCH2_MAJOR >= 3
#define GB_CONTAINS(text) Catch::Matchers::ContainsSubstring(text)
#else
#define GB_CONTAINS(text) Catch::Contains(text)
#endif

namespace graphbench::test_util {

inline TensorSpec fspec(std::vector<std::int64_t> shape, at::Device device = at::kCPU) {
  return TensorSpec{std::move(shape), at::kFloat, device};
}

// The message of the EngineError (or subclass) that `f` throws (support/error_of.h).
template <typename F>
std::string engine_error_of(F&& f) {
  return testing::message_of<EngineError>(std::forward<F>(f));
}

inline bool tensors_close(const at::Tensor& a, const at::Tensor& b, double rtol = 1e-5, double atol = 1e-6) {
  if (!a.defined() || !b.defined() || a.sizes() != b.sizes()) return false;
  return at::allclose(a.detach().cpu(), b.detach().cpu(), rtol, atol);
}

inline float max_abs_diff(const at::Tensor& a, const at::Tensor& b) {
  return (a.detach().cpu() - b.detach().cpu()).abs().max().item<float>();
}

// y = x * 0.5 * (1 + erf(x / 1.41421)), op by op.
inline std::shared_ptr<const Program> gelu_program(std::vector<std::int64_t> shape, at::Device device = at::kCPU,
                                                   const std::string& input_name = "x") {
  Builder b("gelu");
  ValueId x = b.input(input_name, fspec(std::move(shape), device));
  b.output("y", ops::gelu_formula(b, x));
  return b.build();
}

// Adds 1 after reading the sum on the host (.item()): a synchronisation that no CUDA graph capture
// allows (on the CPU it runs as any op).
class HostSyncingOp final : public Op {
 public:
  std::string signature() const override { return "host_syncing_add"; }
  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, 1);
    return {in[0]};
  }
  void run(OpIO& io) const override {
    const float total = io.in(0).sum().item<float>();  // throws while capturing
    (void)total;
    io.out(0) = io.in(0) + 1.0;
  }
};

inline at::Tensor gelu_reference(const at::Tensor& x) { return x * 0.5 * (1.0 + at::erf(x / 1.41421)); }

// The tiny regression problem of the training tests: prediction = x W^T + b, MSE against a target.
struct Regression {
  std::int64_t batch = 16;
  std::int64_t in = 5;
  std::int64_t out = 3;
  at::Device device = at::kCPU;
};

inline const char* const kWeight = "fc.weight";
inline const char* const kBias = "fc.bias";

// The optimizer step added after backward: (builder, params, grads).
using StepBuilder = std::function<void(Builder&, const std::vector<ValueId>&, const std::vector<ValueId>&)>;

inline StepBuilder sgd_steps(const ops::SgdOptions& options) {
  return [options](Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads) {
    ops::sgd_step(b, params, grads, options);
  };
}
inline StepBuilder adam_steps(const ops::AdamOptions& options) {
  return [options](Builder& b, const std::vector<ValueId>& params, const std::vector<ValueId>& grads) {
    ops::adam_step(b, params, grads, options);
  };
}

// Linear -> (dropout p, when p >= 0) -> MSE -> backward -> optimizer step. Inputs "x", "target";
// params "fc.weight", "fc.bias"; output "loss".
inline std::shared_ptr<const Program> train_program(const Regression& r, const StepBuilder& step,
                                                    const std::string& name = "regression_train",
                                                    double dropout_p = -1.0) {
  Builder b(name);
  ValueId x = b.input("x", fspec({r.batch, r.in}, r.device));
  ValueId target = b.input("target", fspec({r.batch, r.out}, r.device));
  ValueId w = b.param(kWeight, fspec({r.out, r.in}, r.device));
  ValueId bias = b.param(kBias, fspec({r.out}, r.device));
  ValueId prediction = ops::linear(b, x, w, bias);
  if (dropout_p >= 0.0) prediction = ops::dropout(b, prediction, dropout_p);
  ValueId loss = ops::mse_loss(b, prediction, target);
  std::vector<ValueId> params{w, bias};
  std::vector<ValueId> grads = ops::backward(b, loss, params);
  step(b, params, grads);
  b.output("loss", loss);
  return b.build();
}

// The forward pass alone over the same param names: "x" -> "y".
inline std::shared_ptr<const Program> eval_program(const Regression& r, const std::string& name = "regression_eval") {
  Builder b(name);
  ValueId x = b.input("x", fspec({r.batch, r.in}, r.device));
  ValueId w = b.param(kWeight, fspec({r.out, r.in}, r.device));
  ValueId bias = b.param(kBias, fspec({r.out}, r.device));
  b.output("y", ops::linear(b, x, w, bias));
  return b.build();
}

// Seeded initial params (CPU random numbers, then moved: the same values on every device).
inline void init_params(ModelStore& store, const Regression& r, std::uint64_t seed = 7) {
  auto gen = at::detail::createCPUGenerator(seed);
  store.set(kWeight, (at::randn({r.out, r.in}, gen) * 0.5).to(r.device));
  store.set(kBias, (at::randn({r.out}, gen) * 0.1).to(r.device));
}

// Seeded normal values made on the CPU, then moved to the GPU (the same values as on the CPU).
inline at::Tensor cuda_randn(std::vector<std::int64_t> shape, std::uint64_t seed) {
  auto gen = at::detail::createCPUGenerator(seed);
  return at::randn(shape, gen).to(at::kCUDA);
}

struct Batch {
  at::Tensor x;
  at::Tensor target;
};

// `steps` seeded batches of a noisy linear relation.
inline std::vector<Batch> make_batches(const Regression& r, int steps, std::uint64_t seed = 11) {
  auto gen = at::detail::createCPUGenerator(seed);
  at::Tensor true_w = at::randn({r.out, r.in}, gen);
  std::vector<Batch> batches;
  for (int i = 0; i < steps; ++i) {
    at::Tensor x = at::randn({r.batch, r.in}, gen);
    at::Tensor target = at::matmul(x, true_w.t()) + 0.3 + 0.05 * at::randn({r.batch, r.out}, gen);
    batches.push_back(Batch{x.to(r.device), target.to(r.device)});
  }
  return batches;
}

// The first `rows` rows of a batch: the short last batch of an epoch.
inline Batch short_batch(const Batch& batch, std::int64_t rows) {
  return Batch{batch.x.narrow(0, 0, rows).contiguous(), batch.target.narrow(0, 0, rows).contiguous()};
}

// Full batches with a short one in the middle: the end of one epoch and the start of the next.
inline std::vector<Batch> with_short_batch(const Regression& r, std::int64_t rows) {
  std::vector<Batch> batches = make_batches(r, 6, 23);
  batches[3] = short_batch(batches[3], rows);
  return batches;
}

inline Feed feed_of(const Batch& batch) { return Feed{{"x", batch.x}, {"target", batch.target}}; }

// Runs `program` with a fresh executor of `kind` over `store` for every batch; returns the losses.
inline std::vector<float> train(ExecutorKind kind, ModelStore& store, const std::shared_ptr<const Program>& program,
                                const std::vector<Batch>& batches, const Policy& policy = Policy::train(),
                                ExecutorOptions options = {}) {
  Engine engine(store);
  auto executor = make_executor(kind, engine, policy, options);
  std::vector<float> losses;
  for (const Batch& batch : batches) {
    auto outputs = executor->run(program, feed_of(batch));
    losses.push_back(outputs.at(0).item<float>());
  }
  return losses;
}

}  // namespace graphbench::test_util
