#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/communication/peer_exchange.h"
#include "graphbench/parallel/communication/symmetric_all_reduce.h"
#include "graphbench/core/suite/gradient_sync_fields.h"

#include <fmt/format.h>

#include <mutex>

namespace graphbench::parallel {

namespace {

class AverageGradientsOp final : public Op {
 public:
  AverageGradientsOp(std::shared_ptr<Communicator> communicator, std::vector<std::vector<std::size_t>> buckets,
                     const std::vector<TensorSpec>& grads, const GradientAverageOptions& options,
                     std::shared_ptr<GradientBucketLog> log)
      : world_(communicator->world_size()),
        backend_(communicator->backend()),
        bfloat16_(options.bfloat16),
        copy_engine_(options.transport == GradientTransport::kCopyEngine),
        count_(grads.size()),
        log_(std::move(log)),
        average_(std::move(communicator), std::move(buckets), grads, options.bfloat16, {}, options.transport) {}

  std::string signature() const override {
    return fmt::format("all_reduce_mean(n={}, buckets={}, world={}, backend={}{}{})", count_,
                       average_.buckets().size(), world_, backend_, bfloat16_ ? ", bfloat16" : "",
                       copy_engine_ ? ", copy-engine" : "");
  }

  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, count_);
    for (const auto& bucket : average_.buckets()) {
      for (std::size_t i : bucket) {
        if (in[i].dtype != in[bucket.front()].dtype || in[i].device != in[bucket.front()].device) {
          throw_op_error(*this, fmt::format("gradients {} and {} share a bucket but differ in dtype or device: {} vs {}",
                                            bucket.front(), i, to_string(in[bucket.front()]), to_string(in[i])));
        }
      }
    }
    return in;
  }

  bool differentiable() const override { return false; }

  void run(OpIO& io) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    average_.begin();
    for (const auto& bucket : average_.buckets()) {
      for (std::size_t i : bucket) average_.ready(i, io.in(i), /*owned=*/false);
    }
    std::vector<at::Tensor> averaged = average_.finish();
    for (std::size_t i = 0; i < count_; ++i) io.out(i) = std::move(averaged[i]);
    if (log_) {
      log_->order.clear();
      for (const auto& bucket : average_.buckets()) log_->order.insert(log_->order.end(), bucket.begin(), bucket.end());
      log_->buckets = average_.buckets();
      log_->pending_at_launch.assign(log_->buckets.size(), 0);  // after backward: nothing to come
    }
  }

 private:
  int world_;
  std::string backend_;
  bool bfloat16_;
  bool copy_engine_;
  std::size_t count_;
  std::shared_ptr<GradientBucketLog> log_;
  // A step's state; runs of one program do not overlap, the lock says so.
  mutable std::mutex mutex_;
  mutable BucketedAverage average_;
};

}  // namespace

GradientAverageOptions average_options(const GradientSyncSpec& spec) {
  GradientAverageOptions options;
  options.bucket_bytes = bucket_cap_bytes(spec);
  options.bfloat16 = spec.dtype == "bfloat16";
  options.transport = spec.transport == "copy-engine"        ? GradientTransport::kCopyEngine
                      : spec.transport == "symmetric-memory" ? GradientTransport::kSymmetricMemory
                                                             : GradientTransport::kCollective;
  return options;
}

std::string resolve_transport(const GradientSyncSpec& spec, Communicator& communicator) {
  if (spec.transport != "auto") return spec.transport;
  // Never across nodes: copy engines, peer access and symmetric memory stop at a node.
  if (communicator.world_size() < 2 || communicator.is_solo() || !communicator.node_layout().one_node() ||
      !communicator.device().is_cuda()) {
    return "collective";
  }
  // The copies pay where backward hides them (chunks sent while the next is computed), and for two
  // ranks only: each rank copies to every other, and at four the step was slower than with NCCL.
  if (spec.chunk_mb > 0.0 && spec.overlap && communicator.world_size() == 2 && peer_exchange_possible(communicator)) {
    return "copy-engine";
  }
  // Symmetric memory was as fast as NCCL or faster on every step measured at two and four ranks.
  if (symmetric_all_reduce_unavailable(communicator.device()).empty() && communicator.ranks_in_own_processes()) {
    return "symmetric-memory";
  }
  return "collective";
}

std::vector<ValueId> average_gradients(Builder& b, const std::vector<ValueId>& grads,
                                       std::shared_ptr<Communicator> communicator,
                                       const GradientAverageOptions& options, const std::vector<std::size_t>& order,
                                       std::shared_ptr<GradientBucketLog> log) {
  if (!communicator) throw EngineError("average_gradients: no communicator");
  if (grads.empty()) throw EngineError("average_gradients: no gradients");
  std::vector<TensorSpec> specs;
  std::vector<std::string> names;
  for (ValueId g : grads) {
    specs.push_back(b.spec(g));
    names.push_back(b.value(g).name + ".mean");
  }
  auto buckets = order.empty() ? plan_buckets(specs, options.bucket_bytes)
                               : plan_buckets_in_order(specs, order, options.bucket_bytes);
  auto op = std::make_shared<AverageGradientsOp>(std::move(communicator), std::move(buckets), specs, options,
                                                 std::move(log));
  return b.add(op, grads, names);
}

}  // namespace graphbench::parallel
