// `graphbench ... --nproc N`: starts N ranks of this program here with a torchrun worker's environment
// (a free MASTER_PORT; with CUDA, NVLink multicast off unless set) and watches them. Ranks die with the
// launcher, each in its own process group. A rank killed by a signal ends the others at once; one that
// exits with an error gives them `grace`, then SIGTERM and SIGKILL a second later.
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

// Runs the ranks to the end: 0 when all exited 0, 2 when every failing rank exited 2 (bad input),
// else 1. `log` gets a line per rank that failed or was ended.
int launch_ranks(const LaunchOptions& options, std::ostream& log);

// How a child of run_child ended.
struct ChildOutcome {
  int status = 0;          // waitpid's status
  int interrupted_by = 0;  // the last SIGINT or SIGTERM the caller received while it ran; 0: none
  bool succeeded() const;
  std::string describe() const;  // "exited with 1", "was killed by signal 9 (Killed)"
};

// Runs `executable` (argv[1...] `arguments`) as one child started as a rank is, and waits for it;
// SIGINT and SIGTERM are passed on and the wait goes on (an interrupted graphbench writes its results).
ChildOutcome run_child(const std::string& executable, const std::vector<std::string>& arguments);

}  // namespace graphbench::parallel
