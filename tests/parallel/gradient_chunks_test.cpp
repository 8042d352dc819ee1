// Gradient chunks (parallel/gradient_sync/gradient_chunks.h, row_chunked_linear.h, chunked_params.h) on CPU ranks
// over Gloo: the plan of row chunks, the chunks as leaves sharing the param's storage, backward
// handing the chunks over one by one (each launched while later ones are still to come), and the
// averages and the params after several SGD steps bit-identical at two ranks to the same chunked
// step whose whole gradient is all-reduced after backward.
#include "parallel/chunked_step_util.h"

#include "graphbench/parallel/gradient_sync/gradient_chunks.h"

using namespace graphbench;
using namespace graphbench::dist_test;

namespace {

constexpr int kSteps = 3;
using Buckets = std::vector<std::vector<std::size_t>>;

// The chunked perceptron's differentiated values: fc1.weight's four chunks (0-3), then fc1.bias (4),
// fc2.weight (5), fc2.bias (6), fc3.weight (7), fc3.bias (8).
constexpr std::size_t kChunkedGradients = 9;

// One rank's steps, each on its own global batch: the averaged gradients, the gradients of the
// rank's shard alone at the same params (the chunked step without all-reduce), the bucket log; and
// the store after the last step.
struct ChunkedRun {
  std::vector<at::Tensor> own[kSteps];
  std::vector<at::Tensor> averaged[kSteps];
  GradientBucketLog log[kSteps];
  ModelStore store;
};

ChunkedRun run_steps(const std::shared_ptr<parallel::Communicator>& comm, ExecutorKind kind, const StepSync& sync,
                     ChunkedAllReduce how, bool chunked = true) {
  const int world = comm->world_size();
  const std::size_t chunk_bytes = chunked ? kTwoRowChunks : 0;
  ChunkedRun out;
  ModelStore store = mlp_params(kMlp);
  auto program = chunked_mlp_step(kMlp, comm, sync, chunk_bytes, how);
  auto alone = chunked_mlp_step(kMlp, nullptr, {}, chunk_bytes);
  Engine engine(store);
  auto executor = make_executor(kind, engine, Policy::train());
  for (int step = 0; step < kSteps; ++step) {
    const test_util::Batch global = mlp_batch(kMlp, kMlp.batch * world, 30 + static_cast<std::uint64_t>(step));
    const Feed feed = test_util::feed_of(shard(global, comm->rank(), world));
    ModelStore own_store = store.clone();
    Engine own_engine(own_store);
    out.own[step] = gradients_after_loss(make_executor(ExecutorKind::kEager, own_engine, Policy::train())->run(alone, feed));
    out.averaged[step] = gradients_after_loss(executor->run(program, feed));
    if (sync.log) out.log[step] = *sync.log;
  }
  out.store = store.clone();
  comm->barrier();
  return out;
}

StepSync chunk_buckets(bool overlap, bool bfloat16 = false) {
  return StepSync{{kTwoRowChunks, bfloat16}, overlap, std::make_shared<GradientBucketLog>()};
}

}  // namespace

TEST_CASE("a gradient's row chunks: each within the cap, all full but the last, whole when it fits", "[dist]") {
  using Rows = std::vector<std::int64_t>;
  const TensorSpec fc1 = test_util::fspec({8, 6});  // rows of 24 bytes, 192 in all
  CHECK(parallel::plan_row_chunks(fc1, kTwoRowChunks) == Rows{2, 2, 2, 2});
  CHECK(parallel::plan_row_chunks(fc1, 72) == Rows{3, 3, 2});
  CHECK(parallel::plan_row_chunks(fc1, 191) == Rows{7, 1});
  CHECK(parallel::plan_row_chunks(fc1, 1) == Rows(8, 1));  // at least a row each
  CHECK(parallel::plan_row_chunks(fc1, 192) == Rows{8});   // fits: whole
  CHECK(parallel::plan_row_chunks(fc1, 0) == Rows{8});     // no chunks
  // configs/ddp.json's large case with --grad-chunk-mb 8: fc1.weight 2048 x 4096 float32 (32 MiB)
  // in chunks of 8 MiB; fc2.weight (1024 x 2048, exactly 8 MiB) stays whole.
  CHECK(parallel::plan_row_chunks(test_util::fspec({2048, 4096}), std::size_t{8} << 20) == Rows{512, 512, 512, 512});
  CHECK(parallel::plan_row_chunks(test_util::fspec({1024, 2048}), std::size_t{8} << 20) == Rows{1024});
  const auto specs = parallel::row_chunk_specs(fc1, {3, 3, 2});
  REQUIRE(specs.size() == 3);
  CHECK(specs[0] == test_util::fspec({3, 6}));
  CHECK(specs[2] == test_util::fspec({2, 6}));
  CHECK_THROWS_WITH(parallel::plan_row_chunks(test_util::fspec({}), 8),
                    Catch::Contains("chunked by rows"));
}

TEST_CASE("a chunked weight's chunks are leaves of their own on the param's storage, the param stays whole",
          "[dist]") {
  Builder b("chunks");
  ValueId w = b.param("fc1.weight", test_util::fspec({8, 6}));
  const parallel::RowChunkedWeight chunked = parallel::chunk_weight_rows(b, w, 72);
  CHECK(chunked.chunked());
  CHECK(chunked.rows == std::vector<std::int64_t>{3, 3, 2});
  CHECK(b.value(chunked.chunks[1]).name == "fc1.weight.chunk1");
  for (std::size_t i = 0; i < chunked.chunks.size(); ++i) b.output("chunk" + std::to_string(i), chunked.chunks[i]);
  ModelStore store;
  store.set("fc1.weight", at::randn({8, 6}));
  Engine engine(store);
  const auto outputs = make_executor(ExecutorKind::kEager, engine, Policy::train())->run(b.build(), {});
  REQUIRE(outputs.size() == 3);
  const at::Tensor& param = store.at("fc1.weight");
  std::int64_t first = 0;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    INFO("chunk " << i);
    CHECK(outputs[i].is_leaf());
    CHECK(outputs[i].requires_grad());
    CHECK(outputs[i].data_ptr<float>() == param.data_ptr<float>() + first * 6);
    CHECK(at::equal(outputs[i], param.narrow(0, first, chunked.rows[i])));
    first += chunked.rows[i];
  }
  CHECK(store.names() == std::vector<std::string>{"fc1.weight"});
  // Within the cap: the param itself, no op.
  Builder whole("whole");
  ValueId w2 = whole.param("fc2.weight", test_util::fspec({8, 6}));
  const parallel::RowChunkedWeight one = parallel::chunk_weight_rows(whole, w2, 192);
  CHECK_FALSE(one.chunked());
  CHECK(one.chunks == std::vector<ValueId>{w2});
}

TEST_CASE("chunked: backward hands the chunks over in row order, each launched while later ones are to come, "
          "averages exact",
          "[dist][gloo]") {
  const ExecutorKind kind = GENERATE(ExecutorKind::kEager, ExecutorKind::kStatic);
  INFO("executor " << to_string(kind));
  constexpr int kWorld = 2;
  auto ranks = run_world<ChunkedRun>(kWorld, [&](const parallel::RankEnv& env) {
    return run_steps(connect_cpu(env), kind, chunk_buckets(/*overlap=*/true), ChunkedAllReduce::kByChunk);
  });
  for (int r = 0; r < kWorld; ++r) {
    INFO("rank " << r);
    const ChunkedRun& run = ranks[static_cast<std::size_t>(r)];
    for (int step = 0; step < kSteps; ++step) {
      INFO("step " << step + 1);
      const GradientBucketLog& log = run.log[step];
      // The last layer's gradients first; fc1.bias (from the bias add) before fc1's chunks, which
      // come one by one in row order, each a bucket of its own.
      CHECK(log.order == std::vector<std::size_t>{8, 7, 6, 5, 4, 0, 1, 2, 3});
      CHECK(log.buckets == Buckets{{8}, {7}, {6}, {5}, {4}, {0}, {1}, {2}, {3}});
      if (step == 0 && kind == ExecutorKind::kEager) {
        // The first run learns the order and averages after backward.
        CHECK(log.pending_at_launch == std::vector<std::size_t>(kChunkedGradients, 0));
      } else {
        // Each chunk's all-reduce started while the later chunks were still to be computed.
        CHECK(log.pending_at_launch == std::vector<std::size_t>{8, 7, 6, 5, 4, 3, 2, 1, 0});
      }
      // The whole params' gradients, joined: the sum of the ranks' own over two, bit for bit.
      REQUIRE(run.averaged[step].size() == 6);
      for (std::size_t i = 0; i < 6; ++i) {
        const at::Tensor expected = (ranks[0].own[step][i] + ranks[1].own[step][i]) / 2.0;
        INFO(mlp_param_names()[i] << ", max abs diff " << test_util::max_abs_diff(run.averaged[step][i], expected));
        CHECK(run.averaged[step][i].sizes() == expected.sizes());
        CHECK(at::equal(run.averaged[step][i], expected));
      }
    }
  }
  CHECK_FALSE(at::equal(ranks[0].own[1][0], ranks[1].own[1][0]));  // the shards' gradients differ
}

TEST_CASE("chunked: gradients and params after several SGD steps bit-identical to the whole gradient's all-reduce, "
          "the store as without chunks",
          "[dist][gloo]") {
  // bfloat16 compression rounds value by value: chunks change nothing there either.
  const bool bfloat16 = GENERATE(false, true);
  INFO((bfloat16 ? "bfloat16 gradients" : "float32 gradients"));
  constexpr int kWorld = 2;
  struct Runs {
    ChunkedRun by_chunk;  // overlapped, chunk by chunk
    ChunkedRun joined;    // the same chunked forward, fc1.weight's gradient joined, then all-reduced after backward
    ChunkedRun plain;     // no chunks: ops::linear, overlapped
  };
  auto ranks = run_world<Runs>(kWorld, [&](const parallel::RankEnv& env) {
    const auto comm = connect_cpu(env);
    Runs runs;
    runs.by_chunk = run_steps(comm, ExecutorKind::kStatic, chunk_buckets(true, bfloat16), ChunkedAllReduce::kByChunk);
    runs.joined =
        run_steps(comm, ExecutorKind::kStatic, chunk_buckets(false, bfloat16), ChunkedAllReduce::kJoinedFirst);
    runs.plain = run_steps(comm, ExecutorKind::kStatic, chunk_buckets(true), ChunkedAllReduce::kByChunk, false);
    return runs;
  });
  for (const Runs& rank : ranks) {
    // Whole gradients after backward: fc1.weight is one gradient of six.
    CHECK(rank.joined.log[kSteps - 1].order == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
    CHECK(rank.plain.log[kSteps - 1].order == std::vector<std::size_t>{5, 4, 3, 2, 1, 0});
    for (int step = 0; step < kSteps; ++step) {
      for (std::size_t i = 0; i < 6; ++i) {
        INFO("step " << step + 1 << ", " << mlp_param_names()[i]);
        const at::Tensor& averaged = rank.by_chunk.averaged[step][i];
        CHECK(at::equal(averaged, rank.joined.averaged[step][i]));
        if (bfloat16) CHECK(at::equal(averaged, averaged.to(at::kBFloat16).to(at::kFloat)));  // reduced in bfloat16
      }
    }
    // The same entries as without chunks (the params and their momentum buffers, by param name).
    CHECK(rank.by_chunk.store.names() == rank.plain.store.names());
    for (const std::string& name : mlp_param_names()) {
      INFO(name);
      CHECK(at::equal(rank.by_chunk.store.at(name), rank.joined.store.at(name)));
      CHECK(at::equal(rank.by_chunk.store.at(name), ranks[0].by_chunk.store.at(name)));  // every rank alike
      // The chunked forward (a product per chunk, then the bias) may differ from the fused one in
      // the last bits only (float32 gradients: the plain step is float32).
      if (bfloat16) continue;
      INFO("vs no chunks, max abs diff " << test_util::max_abs_diff(rank.by_chunk.store.at(name), rank.plain.store.at(name)));
      CHECK(test_util::tensors_close(rank.by_chunk.store.at(name), rank.plain.store.at(name), 1e-5, 1e-6));
    }
  }
  // The steps trained: the params moved.
  CHECK_FALSE(at::equal(ranks[0].by_chunk.store.at("fc1.weight"), mlp_params(kMlp).at("fc1.weight")));
}

TEST_CASE("three ranks: the chunked average is the same on every rank and the mean of the three", "[dist][gloo]") {
  constexpr int kWorld = 3;
  auto ranks = run_world<ChunkedRun>(kWorld, [&](const parallel::RankEnv& env) {
    return run_steps(connect_cpu(env), ExecutorKind::kEager, chunk_buckets(true), ChunkedAllReduce::kByChunk);
  });
  for (int step = 1; step < kSteps; ++step) {
    for (std::size_t i = 0; i < 6; ++i) {
      INFO("step " << step + 1 << ", " << mlp_param_names()[i]);
      const at::Tensor mean = (ranks[0].own[step][i] + ranks[1].own[step][i] + ranks[2].own[step][i]) / 3.0;
      for (const ChunkedRun& rank : ranks) {
        CHECK(at::equal(rank.averaged[step][i], ranks[0].averaged[step][i]));
        INFO("max abs diff " << test_util::max_abs_diff(rank.averaged[step][i], mean));
        CHECK(test_util::tensors_close(rank.averaged[step][i], mean, 1e-6, 1e-7));
      }
    }
    CHECK(ranks[0].log[step].pending_at_launch[5] == 3);  // the first chunk, three to come
  }
  for (const std::string& name : mlp_param_names()) CHECK(at::equal(ranks[1].store.at(name), ranks[0].store.at(name)));
}
