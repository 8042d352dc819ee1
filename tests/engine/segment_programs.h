// Tagged programs for the capture-scope tests (tests/engine/ and tests/cuda/): a two-layer MLP
// whose ops carry layer, module, attention and optimizer tags, for inference and for training, with
// a first op on the input that a test chooses (a plain scaling, or one that cannot be captured).
#pragma once

#include "engine/engine_test_util.h"
#include "graphbench/engine/plan/op_tag.h"
#include "graphbench/engine/plan/segments.h"

#include <ostream>

#include <functional>
#include <string>

namespace graphbench {
// For Catch's messages on a failed comparison.
inline std::ostream& operator<<(std::ostream& os, const Segment& s) {
  return os << "{" << s.first_op << ", " << s.end_op << ", " << (s.captured ? "captured" : "eager") << ", \"" << s.name
            << "\"}";
}
}  // namespace graphbench

namespace graphbench::test_util {

struct TaggedMlp {
  std::int64_t batch = 16;
  std::int64_t in = 6;
  std::int64_t hidden = 10;
  std::int64_t out = 4;
  at::Device device = at::kCPU;
};

// The op that reads the input "x" first (module "prescale", layer -1): x * 1.5 unless a test
// gives another (one that syncs with the host, say).
using FirstOp = std::function<ValueId(Builder&, ValueId)>;

inline FirstOp scale_first(bool capturable = true) {
  return [capturable](Builder& b, ValueId x) {
    OpTag tag;
    tag.module = "prescale";
    tag.capturable = capturable;
    if (!capturable) tag.uncapturable_reason = "stands for a host synchronisation";
    b.set_tag(tag);
    ValueId y = ops::mul_scalar(b, x, 1.5);
    b.clear_tag();
    return y;
  };
}

inline OpTag module_tag(const std::string& module, int layer, bool attention = false) {
  OpTag tag;
  tag.module = module;
  tag.layer = layer;
  tag.attention = attention;
  return tag;
}

// The params, declared on the builder: fc1.weight, fc1.bias, fc2.weight, fc2.bias.
inline std::vector<ValueId> tagged_params(Builder& b, const TaggedMlp& m) {
  return {b.param("fc1.weight", fspec({m.hidden, m.in}, m.device)), b.param("fc1.bias", fspec({m.hidden}, m.device)),
          b.param("fc2.weight", fspec({m.out, m.hidden}, m.device)), b.param("fc2.bias", fspec({m.out}, m.device))};
}

// prescale -> fc1 (layer 0) -> act (layer 0, tagged attention) -> fc2 (layer 1): the prediction.
inline ValueId tagged_forward(Builder& b, ValueId x, const std::vector<ValueId>& p, const FirstOp& first) {
  ValueId h = first(b, x);
  b.set_tag(module_tag("layers.0.fc1", 0));
  h = ops::linear(b, h, p[0], p[1]);
  b.set_tag(module_tag("layers.0.act", 0, /*attention=*/true));
  h = ops::relu(b, h);
  b.set_tag(module_tag("layers.1.fc2", 1));
  h = ops::linear(b, h, p[2], p[3]);
  b.clear_tag();
  return h;
}

// The forward, then (module "post", layer -1) + 0.5: output "y".
inline std::shared_ptr<const Program> tagged_inference(const TaggedMlp& m, const FirstOp& first = scale_first(),
                                                       const std::string& name = "tagged_inference") {
  Builder b(name);
  ValueId x = b.input("x", fspec({m.batch, m.in}, m.device));
  ValueId y = tagged_forward(b, x, tagged_params(b, m), first);
  b.set_tag(module_tag("post", -1));
  y = ops::add_scalar(b, y, 0.5);
  b.clear_tag();
  b.output("y", y);
  return b.build();
}

// The forward, MSE against "target" and backward (module "loss", layer -1), SGD with momentum
// (optimizer): output "loss".
inline std::shared_ptr<const Program> tagged_training(const TaggedMlp& m, const FirstOp& first = scale_first(),
                                                      const std::string& name = "tagged_training") {
  Builder b(name);
  ValueId x = b.input("x", fspec({m.batch, m.in}, m.device));
  ValueId target = b.input("target", fspec({m.batch, m.out}, m.device));
  const std::vector<ValueId> params = tagged_params(b, m);
  ValueId prediction = tagged_forward(b, x, params, first);
  b.set_tag(module_tag("loss", -1));
  ValueId loss = ops::mse_loss(b, prediction, target);
  std::vector<ValueId> grads = ops::backward(b, loss, params);
  OpTag optimizer;
  optimizer.module = "optimizer";
  optimizer.optimizer = true;
  b.set_tag(optimizer);
  ops::SgdOptions sgd;
  sgd.lr = 0.05;
  sgd.momentum = 0.9;
  ops::sgd_step(b, params, grads, sgd);
  b.clear_tag();
  b.output("loss", loss);
  return b.build();
}

// A training step (forward, MSE, backward, SGD), then the loss, which still carries its autograd
// history, doubled by an op tagged not capturable (eager under auto) and + 1 in a captured
// segment: outputs "report" (2 loss + 1) and "loss".
inline std::shared_ptr<const Program> loss_after_step(const TaggedMlp& m) {
  Builder b("loss_after_step");
  ValueId x = b.input("x", fspec({m.batch, m.in}, m.device));
  ValueId target = b.input("target", fspec({m.batch, m.out}, m.device));
  const std::vector<ValueId> params = tagged_params(b, m);
  ValueId loss = ops::mse_loss(b, tagged_forward(b, x, params, scale_first()), target);
  std::vector<ValueId> grads = ops::backward(b, loss, params);
  ops::sgd_step(b, params, grads, ops::SgdOptions{0.05, 0.0, 0.0});
  OpTag host;
  host.capturable = false;
  host.uncapturable_reason = "stands for a host read";
  b.set_tag(host);
  ValueId doubled = ops::mul_scalar(b, loss, 2.0);
  b.clear_tag();
  b.output("report", ops::add_scalar(b, doubled, 1.0));
  b.output("loss", loss);
  return b.build();
}

// Seeded params for a TaggedMlp (CPU random numbers, then moved).
inline void init_tagged_params(ModelStore& store, const TaggedMlp& m, std::uint64_t seed = 5) {
  auto gen = at::detail::createCPUGenerator(seed);
  store.set("fc1.weight", (at::randn({m.hidden, m.in}, gen) * 0.4).to(m.device));
  store.set("fc1.bias", (at::randn({m.hidden}, gen) * 0.1).to(m.device));
  store.set("fc2.weight", (at::randn({m.out, m.hidden}, gen) * 0.4).to(m.device));
  store.set("fc2.bias", (at::randn({m.out}, gen) * 0.1).to(m.device));
}

// Seeded batches: "x" and "target".
inline std::vector<Feed> tagged_batches(const TaggedMlp& m, int steps, bool with_target, std::uint64_t seed = 13) {
  auto gen = at::detail::createCPUGenerator(seed);
  std::vector<Feed> feeds;
  for (int i = 0; i < steps; ++i) {
    Feed feed{{"x", at::randn({m.batch, m.in}, gen).to(m.device)}};
    if (with_target) feed["target"] = at::randn({m.batch, m.out}, gen).to(m.device);
    feeds.push_back(feed);
  }
  return feeds;
}

// The losses of eager training steps over `feeds`, training `store` in place: the reference a
// scoped executor's steps must follow.
inline std::vector<float> eager_training_losses(const std::shared_ptr<const Program>& program, ModelStore& store,
                                                const std::vector<Feed>& feeds) {
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, Policy::train());
  std::vector<float> losses;
  for (const Feed& feed : feeds) losses.push_back(eager->run(program, feed).at(0).item<float>());
  return losses;
}

inline const std::vector<std::string>& tagged_param_names() {
  static const std::vector<std::string> names{"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
                                              "fc1.weight.momentum_buffer", "fc2.weight.momentum_buffer"};
  return names;
}

}  // namespace graphbench::test_util
