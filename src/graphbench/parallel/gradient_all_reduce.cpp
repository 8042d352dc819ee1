#include "graphbench/parallel/gradient_all_reduce.h"

#include "graphbench/core/errors.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

namespace graphbench::parallel {

namespace {

std::size_t bytes_of(const TensorSpec& spec) {
  return static_cast<std::size_t>(spec.numel()) * c10::elementSize(spec.dtype);
}

class AverageGradientsOp final : public Op {
 public:
  AverageGradientsOp(std::shared_ptr<Communicator> communicator, std::vector<std::vector<std::size_t>> buckets,
                     std::size_t count)
      : communicator_(std::move(communicator)), buckets_(std::move(buckets)), count_(count) {}

  std::string signature() const override {
    return fmt::format("all_reduce_mean(n={}, buckets={}, world={}, backend={})", count_, buckets_.size(),
                       communicator_->world_size(), communicator_->backend());
  }

  std::vector<TensorSpec> infer(const std::vector<TensorSpec>& in) const override {
    expect_input_count(*this, in, count_);
    for (const auto& bucket : buckets_) {
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
    at::NoGradGuard no_grad;
    const double world = static_cast<double>(communicator_->world_size());
    for (const auto& bucket : buckets_) {
      std::vector<at::Tensor> parts;
      parts.reserve(bucket.size());
      for (std::size_t i : bucket) parts.push_back(io.in(i).reshape({-1}));
      // One fresh flat buffer per bucket (inside a capture: from the graph's private pool, so the
      // same memory on every replay).
      at::Tensor flat = at::cat(parts);
      communicator_->all_reduce_sum_(flat);
      flat.div_(world);
      std::int64_t offset = 0;
      for (std::size_t i : bucket) {
        const at::Tensor& grad = io.in(i);
        io.out(i) = flat.narrow(0, offset, grad.numel()).view(grad.sizes());
        offset += grad.numel();
      }
    }
  }

 private:
  std::shared_ptr<Communicator> communicator_;
  std::vector<std::vector<std::size_t>> buckets_;
  std::size_t count_;
};

}  // namespace

std::vector<std::vector<std::size_t>> plan_buckets(const std::vector<TensorSpec>& grads, std::size_t bucket_bytes) {
  std::vector<std::vector<std::size_t>> buckets;
  std::size_t filled = 0;
  for (std::size_t i = 0; i < grads.size(); ++i) {
    const std::size_t bytes = bytes_of(grads[i]);
    const bool fits = !buckets.empty() && filled + bytes <= bucket_bytes &&
                      grads[buckets.back().front()].dtype == grads[i].dtype &&
                      grads[buckets.back().front()].device == grads[i].device;
    if (fits) {
      buckets.back().push_back(i);
      filled += bytes;
    } else {
      buckets.push_back({i});
      filled = bytes;
    }
  }
  return buckets;
}

std::vector<ValueId> average_gradients(Builder& b, const std::vector<ValueId>& grads,
                                       std::shared_ptr<Communicator> communicator, std::size_t bucket_bytes) {
  if (!communicator) throw EngineError("average_gradients: no communicator");
  if (grads.empty()) throw EngineError("average_gradients: no gradients");
  std::vector<TensorSpec> specs;
  std::vector<std::string> names;
  for (ValueId g : grads) {
    specs.push_back(b.spec(g));
    names.push_back(b.value(g).name + ".mean");
  }
  auto op = std::make_shared<AverageGradientsOp>(std::move(communicator), plan_buckets(specs, bucket_bytes),
                                                 grads.size());
  return b.add(op, grads, names);
}

}  // namespace graphbench::parallel
