// Tests of engine/exec/conditional_graph.h on the GPU: a chain of early exits and an IF/ELSE branch replayed
// as one graph give what the same ops give eagerly, for every outcome of the decision, and the
// decision is the device's (a changed input changes the outcome without a new capture). Skipped
// without a GPU; without conditional nodes in the build, making one says why.
#include "support/catch.h"
#include "support/cuda_skip.h"
#include "support/error_of.h"

#include "graphbench/engine/exec/conditional_graph.h"

#include <ATen/ATen.h>

#include <vector>

using graphbench::ConditionalGraph;

namespace {

// Three pieces: each adds its index + 1 to an accumulator and reports the accumulator's value as
// its "confidence"; outputs in fixed buffers the test keeps.
struct Chain {
  at::Tensor input = at::zeros({1}, at::TensorOptions().device(at::kCUDA));
  at::Tensor total = at::zeros({1}, at::TensorOptions().device(at::kCUDA));
  at::Tensor ran = at::zeros({3}, at::TensorOptions().device(at::kCUDA));
  std::vector<at::Tensor> between{3};

  at::Tensor run(int k) {
    between[k] = (k == 0 ? input : between[k - 1]) + static_cast<double>(k + 1);
    total.copy_(between[k]);
    ran.narrow(0, k, 1).fill_(1.0);
    return between[k].sum();
  }
  std::vector<ConditionalGraph::Piece> pieces() {
    return {[this] { return run(0); }, [this] { return run(1); }, [this] { return run(2); }};
  }
};

}  // namespace

TEST_CASE("conditional graph: an exit chain stops where eager stops, decided on the device", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!graphbench::conditional_nodes_unavailable().empty()) GRAPHBENCH_SKIP(graphbench::conditional_nodes_unavailable());
  Chain chain;
  for (int k = 0; k < 3; ++k) chain.run(k);  // warm-up
  // Values: piece 0 leaves input + 1, piece 1 input + 3, piece 2 input + 6; stop where value > 4.5.
  auto graph = ConditionalGraph::exit_chain(chain.pieces(), 4.5);
  CHECK(graph->conditional_nodes() == 2);
  REQUIRE(graph->facts().nodes.has_value());
  CHECK(*graph->facts().nodes == 5);  // piece 0, then (condition kernel, IF node) twice
  CHECK_FALSE(graph->facts().kernel_nodes.has_value());  // a replay runs only the bodies it picks
  CHECK(graph->body_kernel_nodes() >= 3);
  struct Outcome {
    float input, total;
    std::vector<float> ran;
  };
  // input 0: 1, 3, 6 -> runs all three; input 2: 3, 5 -> stops after piece 1; input 4: 5 -> after piece 0.
  for (const Outcome& o : {Outcome{0.f, 6.f, {1, 1, 1}}, Outcome{2.f, 5.f, {1, 1, 0}}, Outcome{4.f, 5.f, {1, 0, 0}}}) {
    INFO("input " << o.input);
    chain.input.fill_(o.input);
    chain.ran.zero_();
    graph->replay();
    CHECK(chain.total.item<float>() == o.total);
    const at::Tensor ran = chain.ran.cpu();
    for (int k = 0; k < 3; ++k) CHECK(ran[k].item<float>() == o.ran[k]);
  }
}

TEST_CASE("conditional graph: an IF/ELSE branch runs the side the device's value picks", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!graphbench::conditional_nodes_unavailable().empty()) GRAPHBENCH_SKIP(graphbench::conditional_nodes_unavailable());
  const auto options = at::TensorOptions().device(at::kCUDA);
  at::Tensor x = at::zeros({4}, options), out = at::zeros({4}, options);
  at::Tensor mean;
  auto prefix = [&] { mean = x.mean(); return mean; };
  auto then_step = [&] { out.copy_(x * 2.0); };
  auto else_step = [&] { out.copy_(x - 10.0); };
  prefix();
  then_step();
  else_step();
  // Every comparison, at the number itself and on either side of it: the device takes eager's side.
  using C = ConditionalGraph::Compare;
  for (const C compare : {C::kGreater, C::kGreaterEqual, C::kLess, C::kLessEqual}) {
    auto graph = ConditionalGraph::branch(prefix, then_step, else_step, {compare, 3.0});
    CHECK(graph->conditional_nodes() == 1);
    for (const float value : {2.0f, 3.0f, 4.0f}) {
      const bool holds = compare == C::kGreater        ? value > 3.0f
                         : compare == C::kGreaterEqual ? value >= 3.0f
                         : compare == C::kLess         ? value < 3.0f
                                                       : value <= 3.0f;
      INFO("compare " << static_cast<int>(compare) << ", mean " << value);
      x.fill_(value);
      graph->replay();
      CHECK(out.cpu()[0].item<float>() == (holds ? value * 2.0f : value - 10.0f));
    }
  }
}

TEST_CASE("conditional graph: an exit chain with its own decision at each exit", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!graphbench::conditional_nodes_unavailable().empty()) GRAPHBENCH_SKIP(graphbench::conditional_nodes_unavailable());
  Chain chain;
  for (int k = 0; k < 3; ++k) chain.run(k);
  using C = ConditionalGraph::Compare;
  // After piece 0 (input + 1) exit where it is < 0; after piece 1 (input + 3) where it is >= 6.
  auto graph = ConditionalGraph::exit_chain(chain.pieces(), {{C::kLess, 0.0}, {C::kGreaterEqual, 6.0}});
  CHECK(graph->conditional_nodes() == 2);
  struct Outcome {
    float input, total;
  };
  // input -2: -1 < 0, stops after piece 0; input 3: 4, then 6 >= 6, after piece 1; input 0: 1, 3, 6, all three.
  for (const Outcome& o : {Outcome{-2.f, -1.f}, Outcome{3.f, 6.f}, Outcome{0.f, 6.f}}) {
    INFO("input " << o.input);
    chain.input.fill_(o.input);
    chain.ran.zero_();
    graph->replay();
    CHECK(chain.total.item<float>() == o.total);
  }
  CHECK(chain.ran.cpu()[2].item<float>() == 1.0f);  // the last, input 0, ran piece 2
  CHECK_THAT(graphbench::testing::message_of<graphbench::EngineError>(
                 [&] { ConditionalGraph::exit_chain(chain.pieces(), {{C::kLess, 0.0}}); }),
             Catch::Contains("an exit chain of 3 pieces takes 2 decisions, not 1"));
}

TEST_CASE("conditional graph: pieces that return no single float are refused, naming what is expected", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!graphbench::conditional_nodes_unavailable().empty()) GRAPHBENCH_SKIP(graphbench::conditional_nodes_unavailable());
  const at::Tensor x = at::ones({2}, at::TensorOptions().device(at::kCUDA));
  std::vector<ConditionalGraph::Piece> pieces{[&] { return x * 2.0; }, [&] { return x + 1.0; }};
  CHECK_THAT(graphbench::testing::message_of<graphbench::EngineError>([&] { ConditionalGraph::exit_chain(pieces, 0.5); }),
             Catch::Contains("must return a one-element float32 CUDA tensor"));
}
