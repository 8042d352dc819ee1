// The device memory of captured graphs once they are gone. A capture first gives back what the
// caching allocator keeps cached, the pools of graphs destroyed before it among it (inside a capture
// nothing cached can be given back, so a sweep's later points ran out of memory with the pools of
// all earlier points still reserved); and once no graph is alive, release_cached_device_memory()
// leaves no graph pool holding memory: not after a whole-step graph, the graphs of a segmented step
// with matmuls (cuBLAS's workspace of the capture stream must not come out of a graph's pool), nor
// after a failed capture. Read from the caching allocator's snapshot, which names each segment's
// pool (LibTorch 2.11 and later; support/graph_pools.h). Every case starts with GRAPHBENCH_REQUIRE_CUDA(): without a GPU it
// is skipped with a message.
#include "engine/engine_test_util.h"
#include "engine/segment_programs.h"
#include "graphbench/engine/exec/cached_memory.h"
#include "support/cuda_skip.h"
#include "support/graph_pools.h"

#include <cstdint>
#include <string>

using namespace graphbench;
using namespace graphbench::test_util;
using namespace graphbench::testing;

namespace {

// An MLP whose hidden activations are 4096 x 4096 floats (64 MiB each): the graph's pool is large.
TaggedMlp large_mlp() {
  TaggedMlp m;
  m.batch = 4096;
  m.in = 256;
  m.hidden = 4096;
  m.out = 8;
  m.device = at::Device(at::kCUDA);
  return m;
}

ExecutorOptions with_scope(const std::string& text) {
  ExecutorOptions options;
  options.scope = parse_capture_scope(text, "test");
  return options;
}

// Runs `program` once under a graph executor (a capture), destroyed before returning.
void capture_once(const std::shared_ptr<const Program>& program, const Feed& feed, const TaggedMlp* params,
                  const ExecutorOptions& options = {}) {
  ModelStore store;
  if (params != nullptr) init_tagged_params(store, *params);
  Engine engine(store);
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference(), options);
  graph->run(program, feed);
  CHECK(engine.counters().captures >= 1);
}

std::shared_ptr<const Program> host_syncing_program(std::int64_t n) {
  Builder b("syncing");
  ValueId x = b.input("x", fspec({n}, at::kCUDA));
  b.output("y", b.add1(std::make_shared<HostSyncingOp>(), {x}));
  return b.build();
}

}  // namespace

TEST_CASE("graph memory: a capture first gives back the pools of graphs destroyed before it", "[cuda][graph][memory]") {
  GRAPHBENCH_REQUIRE_CUDA();
  GRAPHBENCH_REQUIRE_GRAPH_POOLS();
  release_cached_device_memory();
  const PoolBytes before = graph_pool_bytes();

  // A large graph, as an earlier point of a sweep: captured, then destroyed with its executor.
  const std::int64_t n = 4096;
  capture_once(gelu_program({n, n}, at::kCUDA), Feed{{"x", cuda_randn({n, n}, 1)}}, nullptr);
  const PoolBytes left = new_pools(before, graph_pool_bytes());
  // Caching the destroyed graph's pool is the allocator's way; what matters is the next capture.
  REQUIRE(total_bytes(left) >= n * n * 4);

  // The next point: a small graph, alive while its memory is read.
  const std::int64_t m = 128;
  ModelStore store;
  Engine engine(store);
  auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
  graph->run(gelu_program({m, m}, at::kCUDA), Feed{{"x", cuda_randn({m, m}, 2)}});
  REQUIRE(engine.counters().captures == 1);
  const PoolBytes after = new_pools(before, graph_pool_bytes());
  for (const auto& pool : left) {
    CAPTURE(pool.second);
    CHECK(after.count(pool.first) == 0);  // the destroyed graph's pool was given back before the capture
  }
  CHECK(after.size() == 1);  // the live graph's own pool
  CHECK(total_bytes(after) < total_bytes(left));
}

TEST_CASE("graph memory: no graph pool holds memory once the graphs are gone and the cache is released",
          "[cuda][graph][memory]") {
  GRAPHBENCH_REQUIRE_CUDA();
  GRAPHBENCH_REQUIRE_GRAPH_POOLS();
  const TaggedMlp m = large_mlp();
  const auto program = tagged_inference(m);
  const Feed feed = tagged_batches(m, 1, /*with_target=*/false).front();
  // One graph for the step; two graphs sharing a pool; two graphs with a pool each. Every capture
  // runs matmuls on a capture stream of its own.
  for (const char* scope : {"full", "layer"}) {
    for (bool pool_per_graph : {false, true}) {
      if (std::string(scope) == "full" && pool_per_graph) continue;
      CAPTURE(scope, pool_per_graph);
      release_cached_device_memory();
      const PoolBytes before = graph_pool_bytes();
      ExecutorOptions options = with_scope(scope);
      options.scope.pool_per_graph = pool_per_graph;
      capture_once(program, feed, &m, options);
      release_cached_device_memory();
      const PoolBytes left = new_pools(before, graph_pool_bytes());
      CHECK(total_bytes(left) == 0);
      CHECK(left.empty());
    }
  }
}

TEST_CASE("graph memory: a failed capture leaves no graph pool holding memory", "[cuda][graph][memory][capture]") {
  GRAPHBENCH_REQUIRE_CUDA();
  GRAPHBENCH_REQUIRE_GRAPH_POOLS();
  release_cached_device_memory();
  const PoolBytes before = graph_pool_bytes();
  {
    // Its output (4 MiB) is allocated in the graph's pool before the op that syncs makes it fail.
    const std::int64_t n = 1 << 20;
    ModelStore store;
    Engine engine(store);
    auto graph = make_executor(ExecutorKind::kGraph, engine, Policy::inference());
    CHECK_THROWS_AS(graph->run(host_syncing_program(n), Feed{{"x", cuda_randn({n}, 3)}}), CaptureError);
    REQUIRE(engine.counters().capture_failures == 1);
  }
  REQUIRE_FALSE(new_pools(before, graph_pool_bytes()).empty());  // the failed capture did take a pool
  release_cached_device_memory();
  const PoolBytes left = new_pools(before, graph_pool_bytes());
  CHECK(total_bytes(left) == 0);
  CHECK(left.empty());
}
