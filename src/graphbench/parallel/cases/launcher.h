// `graphbench ... --nproc N`: starts N ranks of this program on this host and watches them.
//
// Each rank is the same executable with the same arguments (minus --nproc), and the environment a
// torchrun worker gets: RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT
// (a free port on 127.0.0.1). With CUDA, NVLink multicast is kept off unless the caller's
// environment says otherwise (NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1,
// NVSHMEM_DISABLE_NVLS=1). Ranks die with the launcher (PR_SET_PDEATHSIG); each runs in a
// process group of its own, which the launcher signals as a whole.
//
// When a rank dies (a signal) the others are ended at once; when a rank exits with an error, the
// others get `grace` to finish by themselves (they are usually failing the same way) and are then
// ended: SIGTERM, and SIGKILL a second later. The launcher never waits longer than that.
#pragma once

#include <chrono>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace graphbench::parallel {

struct LaunchOptions {
  int nproc = 1;
  std::string executable;               // what each rank runs
  std::vector<std::string> arguments;   // its arguments (argv[1...])
  std::string master_addr = "127.0.0.1";
  int master_port = 0;                  // 0: pick a free port
  bool cuda = false;                    // one GPU per rank: keep NVLink multicast off
  std::chrono::milliseconds grace{10000};
};

// The variables rank `rank` gets on top of `base` (the caller's environment).
std::map<std::string, std::string> rank_environment(const std::map<std::string, std::string>& base,
                                                    const LaunchOptions& options, int rank, int port);

// A TCP port on `address` that nothing listens on right now.
int find_free_port(const std::string& address);

// Runs the ranks to the end. Returns 0 when every rank exited 0; 2 when every failing rank exited
// with 2 (bad input: they all read the same input); otherwise 1, after ending the others. `log`
// gets one line per rank that failed and one per rank ended.
int launch_ranks(const LaunchOptions& options, std::ostream& log);

// How a child of run_child ended.
struct ChildOutcome {
  int status = 0;          // waitpid's status
  int interrupted_by = 0;  // the last SIGINT or SIGTERM the caller received while it ran; 0: none
  bool succeeded() const;
  std::string describe() const;  // "exited with 1", "was killed by signal 9 (Killed)"
};

// Runs `executable` with `arguments` (argv[1...]) and the caller's environment as one child
// process, started as a rank is (a process group of its own, dying with the caller), and waits for
// it to end. Each SIGINT or SIGTERM the caller receives meanwhile is passed on to the child and the
// wait goes on: an interrupted graphbench writes the cases it finished, a second signal ends it.
ChildOutcome run_child(const std::string& executable, const std::vector<std::string>& arguments);

}  // namespace graphbench::parallel
