// Who this process is in a distributed run, from what torchrun, `--nproc N` and Slurm-style scripts set:
//   RANK, WORLD_SIZE         rank and number of ranks (required together)
//   LOCAL_RANK               index on this host: the GPU it uses (default: RANK)
//   LOCAL_WORLD_SIZE         ranks on this host (default: WORLD_SIZE)
//   MASTER_ADDR, MASTER_PORT rank 0's rendezvous store (default 127.0.0.1:29500)
//   GROUP_RANK               torchrun's node rank (node_layout.h)
// TORCHELASTIC_USE_AGENT_STORE=True: torchrun's agent hosts the store, keys under /worker/attempt_<n>.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace graphbench::parallel {

struct RankEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  int local_world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  bool agent_store = false;  // torchrun's agent hosts the store: no rank is its server
  std::string store_prefix;  // key prefix inside that store ("" for our own store)
  std::optional<int> node_rank;  // GROUP_RANK: torchrun's node; none outside torchrun

  // "rank 1 of 2 (local rank 1), store 127.0.0.1:29500"
  std::string describe() const;
  // Where torchrun's agent hosts the store, what to do when this rank cannot talk to it ("" otherwise).
  std::string store_hint() const;
};

// Reads one environment variable; std::nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_environment();

// nullopt where neither RANK nor WORLD_SIZE is set; InputError naming a malformed or lone variable.
std::optional<RankEnv> read_rank_env(const EnvLookup& env = process_environment());

}  // namespace graphbench::parallel
