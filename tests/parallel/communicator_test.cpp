// The communicator over ProcessGroupGloo: two ranks as threads of this process, rendezvous through
// a TCPStore on 127.0.0.1, the collectives the data-parallel runner uses (and the average Gloo
// lacks), and a rendezvous that times out.
#include "parallel/parallel_test_util.h"

#include <fmt/format.h>

using namespace graphbench;
using namespace graphbench::dist_test;

TEST_CASE("two ranks meet and sum, broadcast and agree", "[dist][gloo]") {
  struct Seen {
    int rank = -1;
    int world = 0;
    std::string backend;
    at::Tensor sum;
    at::Tensor broadcast;
    std::vector<std::int64_t> mins, maxs, sums;
    bool any_true = false;
    bool any_false = true;
    std::vector<std::string> gathered;
    std::string read_back;
    bool averages = true;
    std::string average_error;
  };
  auto seen = run_world<Seen>(2, [](const parallel::RankEnv& env) {
    auto comm = connect_cpu(env);
    Seen s;
    s.rank = comm->rank();
    s.world = comm->world_size();
    s.backend = comm->backend();
    s.sum = at::full({5}, static_cast<float>(env.rank + 1));
    comm->all_reduce_sum_(s.sum);
    // Gloo has no averaging all-reduce: the gradient buckets sum and divide (gradient_buckets.h).
    s.averages = comm->averages_in_all_reduce();
    try {
      at::Tensor t = at::ones({2});
      comm->start_all_reduce_average_(t).wait();
    } catch (const std::exception& e) {
      s.average_error = e.what();
    }
    s.broadcast = at::full({3}, static_cast<float>(10 * (env.rank + 1)));
    comm->broadcast_(s.broadcast, 1);
    s.mins = comm->all_reduce_ints({env.rank, -env.rank}, parallel::IntReduce::kMin);
    s.maxs = comm->all_reduce_ints({env.rank, -env.rank}, parallel::IntReduce::kMax);
    s.sums = comm->all_reduce_ints({env.rank, 7}, parallel::IntReduce::kSum);
    s.any_true = comm->any_rank(env.rank == 1);
    s.any_false = comm->any_rank(false);
    s.gathered = comm->gather_to_rank0(fmt::format("from {}", env.rank));
    comm->store_set(fmt::format("note/{}", env.rank), fmt::format("note of {}", env.rank));
    s.read_back = comm->store_get(fmt::format("note/{}", 1 - env.rank));
    comm->barrier();
    return s;
  });
  for (const Seen& s : seen) {
    CHECK(s.world == 2);
    CHECK(s.backend == "gloo");
    CHECK(at::equal(s.sum, at::full({5}, 3.0f)));
    CHECK_FALSE(s.averages);
    CHECK(s.average_error.find("the gloo process group has no averaging all-reduce") != std::string::npos);
    CHECK(at::equal(s.broadcast, at::full({3}, 20.0f)));
    CHECK(s.mins == std::vector<std::int64_t>{0, -1});
    CHECK(s.maxs == std::vector<std::int64_t>{1, 0});
    CHECK(s.sums == std::vector<std::int64_t>{1, 14});
    CHECK(s.any_true);
    CHECK_FALSE(s.any_false);
    CHECK(s.read_back == fmt::format("note of {}", 1 - s.rank));
  }
  CHECK(seen[0].gathered == std::vector<std::string>{"from 0", "from 1"});
  CHECK(seen[1].gathered.empty());
}

TEST_CASE("a rendezvous that a rank never joins times out with a message that counts", "[dist][gloo]") {
  const int port = parallel::find_free_port("127.0.0.1");
  const auto start = std::chrono::steady_clock::now();
  std::string message = "<no DistributedError>";
  try {
    parallel::Communicator::connect(rank_env(0, 2, port), at::kCPU, 1500ms);
  } catch (const DistributedError& e) {
    message = e.what();
  }
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_THAT(message, GB_CONTAINS("rendezvous timed out after 1.5 s: 1 of 2 ranks joined at 127.0.0.1:"));
  CHECK(waited >= 1.4);
  CHECK(waited < 10.0);
}

TEST_CASE("a rank whose store never comes up gives up within the timeout", "[dist][gloo]") {
  const int port = parallel::find_free_port("127.0.0.1");  // nothing listens there
  const auto start = std::chrono::steady_clock::now();
  std::string message = "<no DistributedError>";
  try {
    parallel::Communicator::connect(rank_env(1, 2, port), at::kCPU, 1500ms);
  } catch (const DistributedError& e) {
    message = e.what();
  }
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_THAT(message, GB_CONTAINS("rendezvous: rank 1 of 2"));
  CHECK_THAT(message, GB_CONTAINS("could not reach the store"));
  CHECK(waited < 15.0);
}

TEST_CASE("the replicas start equal: rank 0's params broadcast to all", "[dist][gloo]") {
  auto fingerprints = run_world<std::uint64_t>(2, [](const parallel::RankEnv& env) {
    auto comm = connect_cpu(env);
    ModelStore store;
    store.set("a.weight", at::full({4, 3}, static_cast<float>(env.rank + 1)));
    store.set("a.bias", at::full({4}, static_cast<float>(-env.rank)));
    store.set("steps", at::full({}, env.rank + 5, at::kLong));
    const void* before = store.at("a.weight").data_ptr();
    parallel::broadcast_store(*comm, store);
    if (store.at("a.weight").data_ptr() != before) throw std::runtime_error("broadcast moved a buffer");
    if (!at::equal(store.at("a.weight"), at::full({4, 3}, 1.0f)) || store.at("steps").item<std::int64_t>() != 5) {
      throw std::runtime_error("rank " + std::to_string(env.rank) + " did not get rank 0's values");
    }
    std::vector<at::Tensor> tensors;
    for (const auto& name : store.names()) tensors.push_back(store.at(name));
    return parallel::fingerprint(tensors);
  });
  CHECK(fingerprints[0] == fingerprints[1]);
}

TEST_CASE("the cross-rank check tells equal params from different ones", "[dist][gloo]") {
  auto agreements = run_world<std::pair<parallel::Agreement, parallel::Agreement>>(2, [](const parallel::RankEnv& env) {
    auto comm = connect_cpu(env);
    at::Tensor w = at::linspace(0, 1, 12).view({3, 4});
    const auto same = parallel::agree_across_ranks(*comm, parallel::fingerprint({w}));
    if (env.rank == 1) w[2][3] = std::nextafter(1.0f, 2.0f);  // one ulp on one rank
    const auto different = parallel::agree_across_ranks(*comm, parallel::fingerprint({w}));
    return std::make_pair(same, different);
  });
  for (const auto& [same, different] : agreements) {
    CHECK(same.same);
    CHECK_FALSE(different.same);
    CHECK_THAT(different.describe(), GB_CONTAINS("ranks disagree"));
  }
}
