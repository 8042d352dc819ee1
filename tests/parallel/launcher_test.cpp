// The launcher behind --nproc, with /bin/sh as the ranks: the environment each rank gets, and what
// happens when a rank fails or dies (the others are ended, within a bounded time).
#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/cases/launcher.h"
#include "support/catch.h"

#include <chrono>
#include <csignal>
#include <thread>

#include <unistd.h>
#include <sstream>

using namespace graphbench;
using namespace std::chrono_literals;

namespace {

struct Launched {
  int code = -1;
  double seconds = 0.0;
  std::string log;
};

// Runs `script` with /bin/sh as every rank of a world of `nproc`.
Launched launch_sh(int nproc, const std::string& script, std::chrono::milliseconds grace = 500ms) {
  parallel::LaunchOptions options;
  options.nproc = nproc;
  options.executable = "/bin/sh";
  options.arguments = {"-c", script};
  options.grace = grace;
  std::ostringstream log;
  const auto start = std::chrono::steady_clock::now();
  Launched l;
  l.code = parallel::launch_ranks(options, log);
  l.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  l.log = log.str();
  return l;
}

}  // namespace

TEST_CASE("each rank gets torchrun's variables, and multicast stays off on CUDA unless set", "[dist]") {
  parallel::LaunchOptions options;
  options.nproc = 4;
  options.cuda = true;
  const std::map<std::string, std::string> base{{"PATH", "/bin"}, {"NCCL_NVLS_ENABLE", "1"},
                                                {"TORCHELASTIC_USE_AGENT_STORE", "True"}};
  auto env = parallel::rank_environment(base, options, 2, 41234);
  CHECK(env.at("RANK") == "2");
  CHECK(env.at("LOCAL_RANK") == "2");
  CHECK(env.at("WORLD_SIZE") == "4");
  CHECK(env.at("LOCAL_WORLD_SIZE") == "4");
  CHECK(env.at("MASTER_ADDR") == "127.0.0.1");
  CHECK(env.at("MASTER_PORT") == "41234");
  CHECK(env.at("PATH") == "/bin");
  CHECK(env.at("NCCL_NVLS_ENABLE") == "1");  // the caller's choice wins
  CHECK(env.at("TORCH_SYMM_MEM_DISABLE_MULTICAST") == "1");
  CHECK(env.at("NVSHMEM_DISABLE_NVLS") == "1");
  CHECK(env.count("TORCHELASTIC_USE_AGENT_STORE") == 0);
  options.cuda = false;
  CHECK(parallel::rank_environment({}, options, 0, 1).count("NVSHMEM_DISABLE_NVLS") == 0);
}

TEST_CASE("every rank runs with its own RANK, and all exiting 0 is success", "[dist]") {
  auto l = launch_sh(3, "test \"$WORLD_SIZE\" = 3 && test \"$RANK\" = \"$LOCAL_RANK\" && test -n \"$MASTER_PORT\"");
  CHECK(l.code == 0);
  CHECK(l.log.empty());
}

TEST_CASE("a rank killed by a signal ends the others at once: exit 1", "[dist]") {
  auto l = launch_sh(3, "if [ \"$RANK\" = 1 ]; then sleep 0.2; kill -9 $$; fi; sleep 60", 30s);
  CHECK(l.code == kExitFailure);
  CHECK(l.seconds < 10.0);  // not the ranks' 60 s, not the 30 s grace
  CHECK_THAT(l.log, Catch::Contains("rank 1"));
  CHECK_THAT(l.log, Catch::Contains("was killed by signal 9"));
  CHECK_THAT(l.log, Catch::Contains("ended rank 0"));
  CHECK_THAT(l.log, Catch::Contains("ended rank 2"));
}

TEST_CASE("a rank that exits with an error: the others get the grace period, then are ended", "[dist]") {
  auto l = launch_sh(2, "if [ \"$RANK\" = 0 ]; then exit 1; fi; sleep 60", 1s);
  CHECK(l.code == kExitFailure);
  CHECK(l.seconds >= 0.9);
  CHECK(l.seconds < 10.0);
  CHECK_THAT(l.log, Catch::Contains("rank 0 (pid"));
  CHECK_THAT(l.log, Catch::Contains("exited with 1"));
  CHECK_THAT(l.log, Catch::Contains("ended rank 1"));
}

TEST_CASE("ranks that all finish with an error within the grace period are not ended", "[dist]") {
  auto l = launch_sh(2, "if [ \"$RANK\" = 1 ]; then sleep 0.3; fi; exit 1", 10s);
  CHECK(l.code == kExitFailure);
  CHECK(l.log.find("ended rank") == std::string::npos);
  CHECK(l.seconds < 5.0);
}

TEST_CASE("bad input on every rank stays bad input: exit 2", "[dist]") {
  auto l = launch_sh(2, "exit 2");
  CHECK(l.code == kExitBadInput);
}

// run_child: one process at a time, as --repetitions starts each repetition.
TEST_CASE("run_child: how the child ended, in words", "[dist]") {
  const parallel::ChildOutcome ok = parallel::run_child("/bin/sh", {"-c", "exit 0"});
  CHECK(ok.succeeded());
  CHECK(ok.interrupted_by == 0);
  const parallel::ChildOutcome failed = parallel::run_child("/bin/sh", {"-c", "exit 3"});
  CHECK_FALSE(failed.succeeded());
  CHECK(failed.describe() == "exited with 3");
  const parallel::ChildOutcome killed = parallel::run_child("/bin/sh", {"-c", "kill -9 $$"});
  CHECK_FALSE(killed.succeeded());
  CHECK_THAT(killed.describe(), Catch::StartsWith("was killed by signal 9"));
}

TEST_CASE("run_child: a SIGTERM to the caller is passed on to the child, which ends as it chooses", "[dist]") {
  // The child traps TERM and exits 7; the caller is sent SIGTERM once the child runs.
  std::thread sender([] {
    std::this_thread::sleep_for(300ms);
    ::kill(::getpid(), SIGTERM);
  });
  const parallel::ChildOutcome child = parallel::run_child("/bin/sh", {"-c", "trap 'exit 7' TERM; sleep 20 & wait"});
  sender.join();
  CHECK(child.describe() == "exited with 7");
  CHECK(child.interrupted_by == SIGTERM);
}
