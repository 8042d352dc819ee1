#include "graphbench/parallel/cases/launcher.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/non_copyable.h"
#include "graphbench/parallel/communication/environment_variables.h"

#include <fmt/format.h>

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <cstring>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace graphbench::parallel {

namespace {

using Clock = std::chrono::steady_clock;

struct Rank {
  int rank = 0;
  pid_t pid = -1;
  bool running = false;
  int status = 0;  // waitpid status once it ended
  bool ended_by_us = false;
};

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return fmt::format("was killed by signal {} ({})", sig, name != nullptr ? name : "?");
  }
  return fmt::format("ended with status {}", status);
}

bool succeeded(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

// Starts one rank; the arrays are built before fork, so the child calls only async-signal-safe functions.
pid_t start_rank(const std::string& executable, const std::vector<std::string>& argv_strings,
                 const std::map<std::string, std::string>& env) {
  std::vector<std::string> env_strings;
  for (const auto& [key, value] : env) env_strings.push_back(key + "=" + value);
  std::vector<char*> argv;
  for (const auto& a : argv_strings) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw Error(fmt::format("--nproc: fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    // Dies with the launcher; its own process group lets the launcher end whatever it started.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    setpgid(0, 0);
    if (getppid() != parent) _exit(1);
    execve(executable.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  return pid;
}

// Collects every rank that has ended, without blocking.
void reap(std::vector<Rank>& ranks) {
  for (Rank& r : ranks) {
    if (!r.running) continue;
    int status = 0;
    const pid_t done = waitpid(r.pid, &status, WNOHANG);
    if (done == r.pid) {
      r.running = false;
      r.status = status;
    }
  }
}

bool any_running(const std::vector<Rank>& ranks) {
  return std::any_of(ranks.begin(), ranks.end(), [](const Rank& r) { return r.running; });
}

// Waits until no rank runs or `limit` has passed.
void wait_for_ranks(std::vector<Rank>& ranks, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  for (;;) {
    reap(ranks);
    if (!any_running(ranks) || Clock::now() >= deadline) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void signal_running(std::vector<Rank>& ranks, int sig) {
  for (Rank& r : ranks) {
    if (r.running) {
      kill(-r.pid, sig);
      kill(r.pid, sig);
      r.ended_by_us = true;
    }
  }
}

// The launcher's own SIGINT/SIGTERM: passed on to the ranks.
volatile std::sig_atomic_t g_interrupted = 0;
volatile std::sig_atomic_t g_signals = 0;  // how many were received (run_child passes each on)
void on_interrupt(int sig) {
  g_interrupted = sig;
  g_signals = g_signals + 1;
}

// While it lives, SIGINT and SIGTERM go to on_interrupt; the previous handlers come back after.
class InterruptsCaught : NonCopyable {
 public:
  InterruptsCaught() {
    g_interrupted = 0;
    g_signals = 0;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptsCaught() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace

std::map<std::string, std::string> rank_environment(const std::map<std::string, std::string>& base,
                                                    const LaunchOptions& options, int rank, int port) {
  auto env = base;
  // A launcher started under torchrun must not pass torchrun's store arrangement on.
  env.erase("TORCHELASTIC_USE_AGENT_STORE");
  env["RANK"] = std::to_string(rank);
  env["LOCAL_RANK"] = std::to_string(rank);
  env["WORLD_SIZE"] = std::to_string(options.nproc);
  env["LOCAL_WORLD_SIZE"] = std::to_string(options.nproc);
  env["MASTER_ADDR"] = options.master_addr;
  env["MASTER_PORT"] = std::to_string(port);
  if (options.cuda) {
    env.emplace("NCCL_NVLS_ENABLE", "0");
    env.emplace("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1");
    env.emplace("NVSHMEM_DISABLE_NVLS", "1");
  }
  return env;
}

int find_free_port(const std::string& address) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw Error(fmt::format("--nproc: cannot open a socket: {}", std::strerror(errno)));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = 0;
  if (inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof addr;
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) == 0;
  close(fd);
  if (!ok) throw Error(fmt::format("--nproc: no free port on {}: {}", address, std::strerror(errno)));
  return ntohs(addr.sin_port);
}

int launch_ranks(const LaunchOptions& options, std::ostream& log) {
  const int port = options.master_port > 0 ? options.master_port : find_free_port(options.master_addr);
  const auto base = current_environment();
  std::vector<std::string> argv{options.executable};
  argv.insert(argv.end(), options.arguments.begin(), options.arguments.end());

  const InterruptsCaught interrupts;

  std::vector<Rank> ranks(static_cast<std::size_t>(options.nproc));
  for (int r = 0; r < options.nproc; ++r) {
    ranks[r].rank = r;
    try {
      ranks[r].pid = start_rank(options.executable, argv, rank_environment(base, options, r, port));
    } catch (...) {
      signal_running(ranks, SIGKILL);
      wait_for_ranks(ranks, std::chrono::milliseconds(2000));
      throw;
    }
    ranks[r].running = true;
  }

  // Watch until every rank has ended or one has failed.
  const Rank* first_failure = nullptr;
  while (any_running(ranks) && first_failure == nullptr && g_interrupted == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    reap(ranks);
    for (const Rank& r : ranks) {
      if (!r.running && !succeeded(r.status)) {
        first_failure = &r;
        break;
      }
    }
  }
  if (g_interrupted != 0) {
    log << fmt::format("graphbench: interrupted (signal {}); ending the ranks", static_cast<int>(g_interrupted)) << std::endl;
    signal_running(ranks, SIGTERM);
    wait_for_ranks(ranks, std::chrono::milliseconds(1000));
  } else if (first_failure != nullptr) {
    log << fmt::format("graphbench: rank {} (pid {}) {}", first_failure->rank, first_failure->pid,
                       describe_status(first_failure->status));
    // A rank killed by a signal leaves the others stuck: end them now; one that exited failed as
    // they all usually do: let them finish first.
    const bool died = WIFSIGNALED(first_failure->status);
    if (any_running(ranks)) {
      log << (died ? "; ending the other ranks" : fmt::format("; waiting up to {:g} s for the other ranks",
                                                               options.grace.count() / 1000.0));
    }
    log << std::endl;
    if (!died) wait_for_ranks(ranks, options.grace);
    signal_running(ranks, SIGTERM);
    wait_for_ranks(ranks, std::chrono::milliseconds(1000));
  }
  signal_running(ranks, SIGKILL);
  wait_for_ranks(ranks, std::chrono::milliseconds(5000));

  bool all_ok = true;
  bool only_bad_input = true;
  for (const Rank& r : ranks) {
    if (r.ended_by_us) {
      log << fmt::format("graphbench: ended rank {} (pid {})", r.rank, r.pid) << std::endl;
      all_ok = false;
      only_bad_input = false;
      continue;
    }
    if (succeeded(r.status)) continue;
    all_ok = false;
    if (!(WIFEXITED(r.status) && WEXITSTATUS(r.status) == kExitBadInput)) only_bad_input = false;
    if (&r != first_failure) log << fmt::format("graphbench: rank {} {}", r.rank, describe_status(r.status)) << std::endl;
  }
  if (all_ok && g_interrupted == 0) return kExitOk;
  return only_bad_input && g_interrupted == 0 ? kExitBadInput : kExitFailure;
}

bool ChildOutcome::succeeded() const { return parallel::succeeded(status); }

std::string ChildOutcome::describe() const { return describe_status(status); }

ChildOutcome run_child(const std::string& executable, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{executable};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const InterruptsCaught interrupts;
  ChildOutcome outcome;
  const pid_t pid = start_rank(executable, argv, current_environment());
  int passed_on = 0;
  for (;;) {
    if (g_signals > passed_on) {
      passed_on = g_signals;
      kill(-pid, static_cast<int>(g_interrupted));
      kill(pid, static_cast<int>(g_interrupted));
    }
    const pid_t done = waitpid(pid, &outcome.status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  outcome.interrupted_by = static_cast<int>(g_interrupted);
  return outcome;
}

}  // namespace graphbench::parallel
