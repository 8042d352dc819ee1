#include "mnist/mnist_model.h"
#include "mnist/mnist_net.h"

#include "mnist/device_metrics.h"

#include "common/op_tags.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/gradient_sync/overlapped_backward.h"
#include "graphbench/engine/ops/elementwise.h"
#include "graphbench/engine/ops/nn.h"
#include "graphbench/engine/ops/optimizers.h"
#include "graphbench/engine/plan/builder.h"

#include <fmt/format.h>

#include <map>

namespace graphbench::mnist {

NetImpl::NetImpl()
    : conv1(torch::nn::Conv2dOptions(1, 10, /*kernel_size=*/5)),
      conv2(torch::nn::Conv2dOptions(10, 20, /*kernel_size=*/5)),
      fc1(320, 50),
      fc2(50, 10) {
  register_module("conv1", conv1);
  register_module("conv2", conv2);
  register_module("conv2_drop", conv2_drop);
  register_module("fc1", fc1);
  register_module("fc2", fc2);
}

torch::Tensor NetImpl::forward(torch::Tensor x) {
  x = torch::relu(torch::max_pool2d(conv1->forward(x), 2));
  x = torch::relu(torch::max_pool2d(conv2_drop->forward(conv2->forward(x)), 2));
  x = x.view({-1, 320});
  x = torch::relu(fc1->forward(x));
  x = torch::dropout(x, /*p=*/0.5, /*train=*/is_training());
  x = fc2->forward(x);
  return torch::log_softmax(x, /*dim=*/1);
}

const std::vector<std::int64_t>& param_shape(const std::string& name) {
  static const std::map<std::string, std::vector<std::int64_t>> shapes = {
      {"conv1.weight", {10, 1, 5, 5}}, {"conv1.bias", {10}}, {"conv2.weight", {20, 10, 5, 5}}, {"conv2.bias", {20}},
      {"fc1.weight", {50, 320}},       {"fc1.bias", {50}},   {"fc2.weight", {10, 50}},         {"fc2.bias", {10}}};
  const auto it = shapes.find(name);
  if (it == shapes.end()) throw EngineError("the MNIST network has no param \"" + name + "\"");
  return it->second;
}

const std::vector<std::string>& param_names() {
  static const std::vector<std::string> names = {"conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias",
                                                 "fc1.weight",   "fc1.bias",   "fc2.weight",   "fc2.bias"};
  return names;
}

ModelStore initial_store(at::Device device) {
  Net net;
  ModelStore store;
  for (const auto& item : net->named_parameters()) store.set(item.key(), item.value().detach().to(device).clone());
  return store;
}

void load_params(Net& net, const ModelStore& store) {
  torch::NoGradGuard no_grad;
  for (auto& item : net->named_parameters()) item.value().copy_(store.at(item.key()));
}

namespace {

struct Params {
  std::vector<ValueId> all;
};

Params declare_params(Builder& b, at::Device device) {
  Params p;
  for (const auto& name : param_names()) p.all.push_back(b.param(name, TensorSpec{param_shape(name), at::kFloat, device}));
  return p;
}

// The Net's forward, op by op (`dropout_p` 0: no dropout); each conv block and Linear a layer's tag.
ValueId forward(Builder& b, ValueId x, const Params& p, double dropout_p) {
  b.set_tag(bench::module_tag("conv1", 0));
  x = ops::relu(b, ops::max_pool2d(b, ops::conv2d(b, x, p.all[0], p.all[1]), 2));
  b.set_tag(bench::module_tag("conv2", 1));
  ValueId c2 = ops::conv2d(b, x, p.all[2], p.all[3]);
  if (dropout_p > 0) c2 = ops::dropout(b, c2, dropout_p, /*feature=*/true);
  x = ops::relu(b, ops::max_pool2d(b, c2, 2));
  b.set_tag(bench::module_tag("fc1", 2));
  x = ops::flatten(b, x);
  x = ops::relu(b, ops::linear(b, x, p.all[4], p.all[5]));
  if (dropout_p > 0) x = ops::dropout(b, x, dropout_p);
  b.set_tag(bench::module_tag("fc2", 3));
  x = ops::linear(b, x, p.all[6], p.all[7]);
  x = ops::log_softmax(b, x, 1);
  b.clear_tag();
  return x;
}

TensorSpec image_spec(std::int64_t batch, at::Device device) { return TensorSpec{{batch, 1, 28, 28}, at::kFloat, device}; }
TensorSpec label_spec(std::int64_t batch, at::Device device) { return TensorSpec{{batch}, at::kLong, device}; }

// Forward, NLL loss, backward (averaged over the ranks, data-parallel), SGD on (x, y); the loss.
ValueId train_step(Builder& b, ValueId x, ValueId y, const TrainProgramOptions& options, at::Device device,
                   const DataParallelSetup& setup = {}) {
  Params p = declare_params(b, device);
  ValueId log_probs = forward(b, x, p, options.dropout ? 0.5 : 0.0);
  b.set_tag(bench::module_tag("loss"));
  ValueId loss = ops::nll_loss(b, log_probs, y);
  b.set_tag(bench::module_tag("backward"));
  const auto grads = parallel::step_gradients(b, loss, p.all, setup);
  b.set_tag(bench::optimizer_tag());
  ops::sgd_step(b, p.all, grads, ops::SgdOptions{options.lr, options.momentum, 0.0});
  b.clear_tag();
  return loss;
}

void expect_batches(const GatheredProgramOptions& gathered) {
  if (gathered.batches == nullptr) throw EngineError("a gathered MNIST program needs its device batches");
}

}  // namespace

std::shared_ptr<const Program> build_train_program(const TrainProgramOptions& options, at::Device device,
                                                   const DataParallelSetup& setup) {
  Builder b("mnist_train_step");
  ValueId x = b.input("x", image_spec(options.batch, device));
  ValueId y = b.input("y", label_spec(options.batch, device));
  b.output("loss", train_step(b, x, y, options, device, setup));
  return b.build();
}

std::shared_ptr<const Program> build_test_program(std::int64_t batch, at::Device device) {
  Builder b("mnist_test_batch");
  ValueId x = b.input("x", image_spec(batch, device));
  ValueId y = b.input("y", label_spec(batch, device));
  Params p = declare_params(b, device);
  ValueId log_probs = forward(b, x, p, 0.0);
  b.output("loss_sum", ops::nll_loss_sum(b, log_probs, y));
  b.output("correct", ops::count_correct(b, log_probs, y));
  return b.build();
}

std::shared_ptr<const Program> build_gathered_train_program(const TrainProgramOptions& options,
                                                            const GatheredProgramOptions& gathered) {
  expect_batches(gathered);
  const bench::DeviceBatches& batches = *gathered.batches;
  Builder b(fmt::format("mnist_train_step_gathered_{}", gathered.shape.rows));
  const bench::GatheredBatch batch = batches.gather(b, gathered.shape);
  const ValueId loss = train_step(b, batch.images, batch.labels, options, batches.device());
  bench::log_at_step(b, gathered.metrics + ".loss_log", gathered.log_capacity, batch.step, loss);
  batches.advance(b, batch.step);
  b.output("loss", loss);
  return b.build();
}

std::shared_ptr<const Program> build_gathered_test_program(const GatheredProgramOptions& gathered) {
  expect_batches(gathered);
  const bench::DeviceBatches& batches = *gathered.batches;
  Builder b(fmt::format("mnist_test_batch_gathered_{}", gathered.shape.rows));
  const bench::GatheredBatch batch = batches.gather(b, gathered.shape);
  Params p = declare_params(b, batches.device());
  const ValueId log_probs = forward(b, batch.images, p, 0.0);
  const ValueId loss_total =
      bench::accumulate(b, gathered.metrics + ".loss_total", at::kDouble, ops::nll_loss_sum(b, log_probs, batch.labels));
  const ValueId correct_total =
      bench::accumulate(b, gathered.metrics + ".correct_total", at::kLong, ops::count_correct(b, log_probs, batch.labels));
  batches.advance(b, batch.step);
  b.output("loss_total", loss_total);
  b.output("correct_total", correct_total);
  return b.build();
}

}  // namespace graphbench::mnist
