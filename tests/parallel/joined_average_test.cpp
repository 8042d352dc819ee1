// The averages of a weight's row chunks placed one after another in one buffer (gradient_buckets.h,
// joined ranges), so that the weight's whole gradient is a view of it (chunked_params.h): on CPU
// ranks over Gloo, the placement for buckets of the range's gradients in index order, the
// fallback to a bucket's own buffer, and the join as a view or a copy.
#include "parallel/chunked_step_util.h"

#include "graphbench/parallel/gradient_sync/gradient_chunks.h"

using namespace graphbench;
using namespace graphbench::dist_test;

namespace {

using Buckets = std::vector<std::vector<std::size_t>>;

// Gradient 0 a bias [3]; 1 to 3 the chunks of a weight [6, 2], two rows each: a joined range.
std::vector<at::Tensor> rank_gradients(int rank) {
  auto gen = at::detail::createCPUGenerator(11 + static_cast<std::uint64_t>(rank));
  return {at::randn({3}, gen), at::randn({2, 2}, gen), at::randn({2, 2}, gen), at::randn({2, 2}, gen)};
}

const std::vector<parallel::JoinedRange> kChunksOfOneWeight = {{1, {4, 4, 4}}};

struct Averaged {
  std::vector<at::Tensor> averaged;
  std::vector<at::Tensor> own;
};

// Each rank hands its gradients over in `arrival` order and returns the averages.
std::vector<Averaged> average_on_two_ranks(const Buckets& buckets, const std::vector<std::size_t>& arrival) {
  return run_world<Averaged>(2, [&](const parallel::RankEnv& env) {
    std::vector<TensorSpec> specs;
    for (const at::Tensor& g : rank_gradients(env.rank)) specs.push_back(spec_of(g));
    parallel::BucketedAverage average(connect_cpu(env), buckets, specs, /*bfloat16=*/false, kChunksOfOneWeight);
    Averaged out;
    out.own = rank_gradients(env.rank);
    average.begin();
    for (std::size_t i : arrival) average.ready(i, out.own[i].clone(), /*owned=*/true);
    out.averaged = average.finish();
    return out;
  });
}


}  // namespace

TEST_CASE("joined range: buckets of its gradients in index order are averaged into their rows of one buffer",
          "[dist][gloo]") {
  const bool reversed = GENERATE(false, true);
  INFO((reversed ? "buckets launched last chunk first" : "buckets launched in row order"));
  // Each chunk a bucket of its own: placed whatever the launch order.
  const Buckets buckets = reversed ? Buckets{{0}, {3}, {2}, {1}} : Buckets{{0}, {1}, {2}, {3}};
  const auto ranks = average_on_two_ranks(buckets, {3, 0, 2, 1});
  for (const Averaged& rank : ranks) {
    CHECK(parallel::lies_right_after(rank.averaged[1], rank.averaged[2]));
    CHECK(parallel::lies_right_after(rank.averaged[2], rank.averaged[3]));
    CHECK_FALSE(rank.averaged[0].is_alias_of(rank.averaged[1]));
    for (std::size_t i = 0; i < 4; ++i) {
      INFO("gradient " << i);
      CHECK(at::equal(rank.averaged[i], (ranks[0].own[i] + ranks[1].own[i]) / 2.0));
    }
  }
}

TEST_CASE("joined range: a bucket that mixes in another gradient, or holds the range out of order, keeps a buffer "
          "of its own",
          "[dist][gloo]") {
  // {0, 1}: the bias with the first chunk; {3, 2}: two chunks, last first.
  const auto ranks = average_on_two_ranks(Buckets{{0, 1}, {3, 2}}, {0, 1, 2, 3});
  for (const Averaged& rank : ranks) {
    CHECK_FALSE(parallel::lies_right_after(rank.averaged[1], rank.averaged[2]));
    CHECK_FALSE(parallel::lies_right_after(rank.averaged[2], rank.averaged[3]));
    CHECK(parallel::lies_right_after(rank.averaged[0], rank.averaged[1]));  // packed together in their bucket
    for (std::size_t i = 0; i < 4; ++i) {
      INFO("gradient " << i);
      CHECK(at::equal(rank.averaged[i], (ranks[0].own[i] + ranks[1].own[i]) / 2.0));
    }
  }
  // In index order within the bucket: placed.
  const auto in_order = average_on_two_ranks(Buckets{{0}, {1}, {2, 3}}, {0, 1, 2, 3});
  CHECK(parallel::lies_right_after(in_order[0].averaged[1], in_order[0].averaged[2]));
  CHECK(parallel::lies_right_after(in_order[0].averaged[2], in_order[0].averaged[3]));
}

TEST_CASE("joined rows: a view of chunks that lie one after another, a copy of others", "[dist]") {
  using test_util::fspec;
  Builder b("join");
  ValueId w = b.param("w", fspec({6, 2}));
  const parallel::RowChunkedWeight chunked = parallel::chunk_weight_rows(b, w, 16);  // two rows of 8 bytes each
  REQUIRE(chunked.rows == std::vector<std::int64_t>{2, 2, 2});
  parallel::ChunkedParams params;
  params.add(chunked);
  b.output("adjacent", params.join(b, chunked.chunks).front());
  // Another weight's gradient from three separate inputs.
  std::vector<ValueId> apart;
  for (const char* name : {"a", "b", "c"}) apart.push_back(b.input(name, fspec({2, 2})));
  parallel::ChunkedParams other;
  other.add(parallel::RowChunkedWeight{b.param("v", fspec({6, 2})), apart, {2, 2, 2}});
  b.output("apart", other.join(b, apart).front());
  ModelStore store;
  store.set("w", at::randn({6, 2}));
  store.set("v", at::randn({6, 2}));
  const Feed feed{{"a", at::randn({2, 2})}, {"b", at::randn({2, 2})}, {"c", at::randn({2, 2})}};
  Engine engine(store);
  const ExecutorKind kind = GENERATE(ExecutorKind::kEager, ExecutorKind::kStatic);
  INFO("executor " << to_string(kind));
  const auto outputs = make_executor(kind, engine, Policy::train())->run(b.build(), feed);
  const at::Tensor& param = store.at("w");
  CHECK(outputs[0].is_alias_of(param));
  CHECK(outputs[0].data_ptr() == param.data_ptr());
  CHECK(at::equal(outputs[0], param));
  CHECK(outputs[0].is_contiguous());
  CHECK(at::equal(outputs[1], at::cat({feed.at("a"), feed.at("b"), feed.at("c")}, 0)));
  CHECK_FALSE(outputs[1].is_alias_of(feed.at("a")));
}

TEST_CASE("overlapped: a weight's chunks, one after another in its memory, get their averages one after another",
          "[dist][gloo]") {
  using test_util::fspec;
  struct Run {
    std::vector<bool> adjacent;  // per step: every chunk's average follows the one before
    std::vector<bool> joined_is_view;
  };
  const auto ranks = run_world<Run>(2, [](const parallel::RankEnv& env) {
    const auto comm = connect_cpu(env);
    Builder b("chunked_linear_step");
    ValueId x = b.input("x", fspec({4, 2}));
    ValueId target = b.input("target", fspec({4, 6}));
    ValueId w = b.param("w", fspec({6, 2}));
    ValueId bias = b.param("bias", fspec({6}));
    const parallel::RowChunkedWeight chunked = parallel::chunk_weight_rows(b, w, 16);  // three chunks of two rows
    ValueId loss = ops::mse_loss(b, parallel::row_chunked_linear(b, x, chunked, bias), target);
    parallel::ChunkedParams params;
    params.add(chunked);
    params.add(bias);
    const parallel::GradientAverageOptions one_chunk_a_bucket{16, false};
    const auto grads = parallel::backward_and_average(b, loss, params.differentiated(), comm, one_chunk_a_bucket);
    for (std::size_t i = 0; i < grads.size(); ++i) b.output("grad" + std::to_string(i), grads[i]);
    b.output("joined", params.join(b, grads).front());
    const auto program = b.build();
    ModelStore store;
    store.set("w", at::randn({6, 2}));
    store.set("bias", at::randn({6}));
    Engine engine(store);
    auto executor = make_executor(ExecutorKind::kEager, engine, Policy::train());
    Run run;
    for (int step = 0; step < 2; ++step) {  // the first run averages after backward, the second overlaps
      const auto outputs = executor->run(program, {{"x", at::randn({4, 2})}, {"target", at::randn({4, 6})}});
      run.adjacent.push_back(parallel::lies_right_after(outputs[0], outputs[1]) && parallel::lies_right_after(outputs[1], outputs[2]));
      run.joined_is_view.push_back(outputs[4].is_alias_of(outputs[0]) &&
                                   outputs[4].data_ptr() == outputs[0].data_ptr());
    }
    comm->barrier();
    return run;
  });
  for (const Run& run : ranks) {
    CHECK(run.adjacent == std::vector<bool>{true, true});
    CHECK(run.joined_is_view == std::vector<bool>{true, true});
  }
}

TEST_CASE("the one-GPU baseline's world (solo) averages nothing: the gradients themselves, a joined range still "
          "in its buffer; a plain world of one still packs its buckets",
          "[dist][gloo]") {
  const Buckets buckets = {{0, 1}, {2, 3}};  // the bias with the first chunk; the other two chunks
  const auto ranks = run_world<std::vector<Averaged>>(1, [&](const parallel::RankEnv& env) {
    auto comm = connect_cpu(env);
    std::vector<Averaged> out;
    for (const bool solo : {true, false}) {
      auto world = solo ? comm->solo("joined-average-test") : comm;
      CHECK(world->is_solo() == solo);
      std::vector<TensorSpec> specs;
      for (const at::Tensor& g : rank_gradients(0)) specs.push_back(spec_of(g));
      parallel::BucketedAverage average(world, buckets, specs, /*bfloat16=*/false, kChunksOfOneWeight);
      Averaged a;
      a.own = rank_gradients(0);
      average.begin();
      for (std::size_t i : {0, 1, 2, 3}) average.ready(i, a.own[i], /*owned=*/false);
      a.averaged = average.finish();
      if (solo) world->shutdown();
      out.push_back(a);
    }
    return out;
  });
  const Averaged& solo = ranks.front()[0];
  const Averaged& plain = ranks.front()[1];
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("gradient " << i);
    CHECK(at::equal(solo.averaged[i], solo.own[i]));
    CHECK(at::equal(plain.averaged[i], plain.own[i]));
  }
  // Solo: the bias is handed back as it came (the first bucket's other member is a range chunk,
  // so that bucket has no joined place); the last two chunks fill their rows of the range's buffer.
  CHECK(solo.averaged[0].is_same(solo.own[0]));
  CHECK(parallel::lies_right_after(solo.averaged[2], solo.averaged[3]));
  // A plain world of one packs every bucket into a buffer of its own: nothing is handed back as it came.
  for (std::size_t i = 0; i < 4; ++i) CHECK_FALSE(plain.averaged[i].is_same(plain.own[i]));
}
