#include "graphbench/parallel/gradient_sync/overlapped_backward.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/ops/autograd.h"
#include "graphbench/parallel/gradient_sync/gradient_chunks.h"
#include "graphbench/parallel/communication/peer_exchange.h"
#include "graphbench/parallel/communication/symmetric_all_reduce.h"
#include "graphbench/parallel/communication/fingerprints.h"
#include "graphbench/parallel/gradient_sync/side_stream.h"

#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>

namespace graphbench::parallel {

namespace {

using GradientReady = std::function<void(at::Tensor)>;

// A post hook on a param's gradient accumulator: hands the gradient over and leaves `.grad` empty.
class TakeGradient final : public torch::autograd::FunctionPostHook {
 public:
  TakeGradient(at::Tensor param, GradientReady ready) : param_(std::move(param)), ready_(std::move(ready)) {}

  torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                            const torch::autograd::variable_list& /*inputs*/) override {
    at::Tensor grad = std::move(param_.mutable_grad());
    param_.mutable_grad() = at::Tensor();
    if (grad.defined()) ready_(std::move(grad));
    return outputs;
  }

 private:
  at::Tensor param_;
  GradientReady ready_;
};

// The hooks of one run, removed when it ends (the accumulators may outlive it).
class RunHooks {
 public:
  void add(const at::Tensor& param, std::size_t index, GradientReady ready) {
    std::shared_ptr<torch::autograd::Node> accumulator = torch::autograd::impl::grad_accumulator(param);
    if (!accumulator) {
      throw EngineError(fmt::format("param {} has no gradient accumulator: it must be a leaf that requires grad", index));
    }
    const std::uintptr_t key = accumulator->add_post_hook(std::make_unique<TakeGradient>(param, std::move(ready)));
    hooks_.emplace_back(std::move(accumulator), key);
  }
  ~RunHooks() {
    for (auto& [accumulator, key] : hooks_) accumulator->del_post_hook(key);
  }

 private:
  std::vector<std::pair<std::shared_ptr<torch::autograd::Node>, std::uintptr_t>> hooks_;
};

// Backward of `loss`, each gradient handed to `ready(i, grad)` as it comes; the params that got none.
std::vector<bool> run_backward(const at::Tensor& loss, const std::vector<at::Tensor>& params,
                               const std::function<void(std::size_t, at::Tensor)>& ready) {
  std::vector<bool> came(params.size(), false);
  RunHooks hooks;
  for (std::size_t i = 0; i < params.size(); ++i) {
    params[i].mutable_grad() = at::Tensor();  // nothing left over from a run that failed part-way
    hooks.add(params[i], i, [&ready, &came, i](at::Tensor grad) {
      came[i] = true;
      ready(i, std::move(grad));
    });
  }
  torch::autograd::backward({loss}, /*grad_tensors=*/{}, /*retain_graph=*/false, /*create_graph=*/false, params);
  std::vector<bool> missing(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) missing[i] = !came[i];
  return missing;
}

// Runs of params adjacent in one tensor's memory (a weight's row chunks): averaged adjacently too.
std::vector<JoinedRange> adjacent_param_ranges(const std::vector<at::Tensor>& params) {
  std::vector<JoinedRange> ranges;
  for (std::size_t i = 0; i < params.size();) {
    std::size_t end = i + 1;
    while (end < params.size() && lies_right_after(params[end - 1], params[end])) ++end;
    if (end - i > 1) {
      JoinedRange range{i, {}};
      for (std::size_t k = i; k < end; ++k) range.numels.push_back(params[k].numel());
      ranges.push_back(std::move(range));
    }
    i = end;
  }
  return ranges;
}

class BackwardAndAverageOp final : public Op {
 public:
  BackwardAndAverageOp(std::shared_ptr<Communicator> communicator, std::size_t count, GradientAverageOptions options,
                       std::shared_ptr<GradientBucketLog> log)
      : communicator_(std::move(communicator)), count_(count), options_(options), log_(std::move(log)) {}

  std::string signature() const override {
    return fmt::format("backward+all_reduce_mean(n={}, world={}, backend={}, bucket_bytes={}{}{})", count_,
                       communicator_->world_size(), communicator_->backend(), options_.bucket_bytes,
                       options_.bfloat16 ? ", bfloat16" : "",
                       options_.transport == GradientTransport::kCopyEngine ? ", copy-engine" : "");
  }

  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    return ops::gradient_specs_of(*this, in, count_);
  }

  bool differentiable() const override { return false; }

  std::vector<int> differentiates_inputs() const override { return ops::param_inputs(count_); }

  void run(OpIO& io) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    const at::Tensor& loss = io.in(0);
    const std::vector<at::Tensor> params = io.in_list(1, count_);
    const bool first_run = !average_;
    std::vector<at::Tensor> averaged = first_run ? first(loss, params) : overlapped(loss, params);
    for (std::size_t i = 0; i < count_; ++i) io.out(i) = std::move(averaged[i]);
    if (log_) {
      log_->order = order_;
      log_->buckets = average_->buckets();
      // The first run averaged after backward: nothing was still to come at any launch.
      log_->pending_at_launch = first_run ? std::vector<std::size_t>(log_->buckets.size(), 0) : pending_at_launch_;
    }
  }

 private:
  // The first run learns the backward order, agrees on it, then averages after backward in that order.
  std::vector<at::Tensor> first(const at::Tensor& loss, const std::vector<at::Tensor>& params) const {
    if (is_capturing(communicator_->device())) {
      throw EngineError(signature() + ": its first run learns the backward order and must not be captured "
                                      "(run the program once before capturing it)");
    }
    std::vector<std::size_t> order;
    std::vector<at::Tensor> grads(count_);
    const std::vector<bool> missing = run_backward(loss, params, [&](std::size_t i, at::Tensor grad) {
      order.push_back(i);
      grads[i] = std::move(grad);
    });
    for (std::size_t i = 0; i < count_; ++i) {
      if (!missing[i]) continue;
      // A param the loss does not depend on gets a zero gradient, last.
      order.push_back(i);
      grads[i] = at::zeros_like(params[i]);
    }
    std::vector<std::int64_t> order_values(order.begin(), order.end());
    const Agreement agreement = agree_across_ranks(*communicator_, fingerprint({at::tensor(order_values)}));
    if (!agreement.same) {
      throw EngineError(fmt::format("{}: the ranks' backward passes produced the gradients in different orders ({}); "
                                    "this rank's: {}",
                                    signature(), agreement.describe(), fmt::join(order, ", ")));
    }
    std::vector<TensorSpec> specs;
    for (const at::Tensor& p : params) specs.push_back(spec_of(p));
    order_ = order;
    average_.emplace(communicator_, plan_buckets_in_order(specs, order, options_.bucket_bytes), specs,
                     options_.bfloat16, adjacent_param_ranges(params), options_.transport);
    average_->begin();
    for (std::size_t i : order) average_->ready(i, std::move(grads[i]), /*owned=*/true);
    return average_->finish();
  }

  // Every later run: each bucket launched as soon as backward completes it.
  std::vector<at::Tensor> overlapped(const at::Tensor& loss, const std::vector<at::Tensor>& params) const {
    average_->begin();
    pending_at_launch_.clear();
    std::size_t arrived = 0;
    const auto ready = [&](std::size_t i, at::Tensor grad) {
      ++arrived;
      const std::size_t launched = average_->ready(i, std::move(grad), /*owned=*/true);
      pending_at_launch_.insert(pending_at_launch_.end(), launched, count_ - arrived);
    };
    const std::vector<bool> missing = run_backward(loss, params, ready);
    for (std::size_t i = 0; i < count_; ++i) {
      if (missing[i]) ready(i, at::zeros_like(params[i]));
    }
    return average_->finish();
  }

  std::shared_ptr<Communicator> communicator_;
  std::size_t count_;
  GradientAverageOptions options_;
  std::shared_ptr<GradientBucketLog> log_;
  // Learnt on the first run. Runs of one program do not overlap; the lock says so.
  mutable std::mutex mutex_;
  mutable std::vector<std::size_t> order_;
  mutable std::optional<BucketedAverage> average_;
  mutable std::vector<std::size_t> pending_at_launch_;  // per bucket: gradients still to come at its launch
};

}  // namespace

std::vector<ValueId> backward_and_average(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                          std::shared_ptr<Communicator> communicator,
                                          const GradientAverageOptions& options,
                                          std::shared_ptr<GradientBucketLog> log) {
  if (!communicator) throw EngineError("backward_and_average: no communicator");
  if (params.empty()) throw EngineError("backward_and_average: no params");
  std::vector<ValueId> inputs{loss};
  std::vector<std::string> names;
  for (ValueId p : params) {
    inputs.push_back(p);
    names.push_back("grad." + b.value(p).name + ".mean");
  }
  auto op = std::make_shared<BackwardAndAverageOp>(std::move(communicator), params.size(), options, std::move(log));
  return b.add(op, inputs, names);
}

std::vector<ValueId> step_gradients(Builder& b, ValueId loss, const std::vector<ValueId>& params,
                                    const DataParallelSetup& setup) {
  if (!setup.communicator) return ops::backward(b, loss, params);
  const std::string& transport = setup.gradient_sync.transport;
  if ((transport == "copy-engine" || transport == "symmetric-memory") && setup.communicator->world_size() > 1) {
    const NodeLayout& layout = setup.communicator->node_layout();
    if (!layout.one_node()) {
      throw EngineError(fmt::format("grad_transport {}: the ranks are on {}, and {} reach the GPUs of one node only; "
                                    "use \"collective\" or \"auto\" (docs/distributed.md)",
                                    transport, layout.describe(),
                                    transport == "copy-engine" ? "the copy engines and peer access" : "symmetric memory"));
    }
    const std::string why = transport == "copy-engine" ? peer_exchange_unavailable(setup.communicator->device())
                                                       : symmetric_all_reduce_unavailable(setup.communicator->device());
    if (!why.empty()) throw EngineError("grad_transport " + transport + ": " + why);
  }
  const GradientAverageOptions options = average_options(setup.gradient_sync);
  if (setup.gradient_sync.overlap) return backward_and_average(b, loss, params, setup.communicator, options, setup.bucket_log);
  std::vector<ValueId> grads = ops::backward(b, loss, params);
  return average_gradients(b, grads, setup.communicator, options, {}, setup.bucket_log);
}

}  // namespace graphbench::parallel
