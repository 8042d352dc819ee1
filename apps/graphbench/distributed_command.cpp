// The data-parallel side of `graphbench run` (docs/distributed.md): `--nproc N` starts N ranks of
// the same command line and watches them; a process whose environment names its rank (RANK,
// WORLD_SIZE, ...) runs as that rank: rendezvous, the suite in step with the others, rank 0
// writing the results.
#include "run_option_checks.h"
#include "run_support.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/parallel/cases/data_parallel_suite.h"
#include "graphbench/parallel/cases/launcher.h"
#include "graphbench/parallel/cases/progress_watchdog.h"
#include "graphbench/engine/runner/workload_registry.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#endif
#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <iostream>

namespace graphbench::cli {

namespace {

int cuda_device_count() {
#ifdef GRAPHBENCH_WITH_CUDA
  return static_cast<int>(c10::cuda::device_count());
#else
  return 0;
#endif
}

// --dist-timeout, checked positive by check_run_options (run_option_checks.h) in both programs.
std::chrono::milliseconds dist_timeout(const RunOptions& o) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(o.dist_timeout_s * 1000.0));
}

}  // namespace

int launch_ranks_command(const RunOptions& o) {
  const int nproc = *o.nproc;
  if (const auto existing = parallel::read_rank_env()) {
    throw InputError(fmt::format("--nproc: this process already runs as {} (RANK and WORLD_SIZE are set, e.g. by "
                                 "torchrun): give --nproc or that environment, not both",
                                 existing->describe()));
  }
  // The whole command line is checked here, once, so that bad input ends the run before any rank starts.
  const PreparedRun run = prepare_run(o);
  prepare_output(run, o.quiet ? nullptr : &std::cerr);
  if (!parallel::backend_available(run.device)) {
    throw InputError(fmt::format("--nproc: this graphbench has no c10d backend for {} ({}); see docs/distributed.md",
                                 run.device.is_cuda() ? "CUDA (NCCL)" : "the CPU (Gloo)", parallel::backend_name(run.device)));
  }
  if (run.device.is_cuda() && nproc > cuda_device_count()) {
    throw InputError(fmt::format("--nproc {}: one rank per GPU, and {} CUDA device(s) are visible", nproc,
                                 cuda_device_count()));
  }
  parallel::LaunchOptions launch;
  launch.nproc = nproc;
  launch.executable = "/proc/self/exe";
  launch.arguments = without_option(o.arguments, "--nproc");  // each rank runs the same, one process
  launch.cuda = run.device.is_cuda();
  if (!o.quiet) {
    std::cerr << fmt::format("graphbench: starting {} rank(s) of suite {} on {} ({})\n", nproc, run.suite.name,
                             run.device.is_cuda() ? "cuda, one GPU each" : "cpu", parallel::backend_name(run.device));
  }
  return parallel::launch_ranks(launch, std::cerr);
}

int run_as_rank(const RunOptions& o, const parallel::RankEnv& rank, const std::string& command_line) {
  refuse_suite_from_stdin(o, "a data-parallel run", "rank");  // a rank of torchrun's
  const auto timeout = dist_timeout(o);
  PreparedRun run = prepare_run(o);
  if (run.device.is_cuda()) {
    if (rank.local_rank >= cuda_device_count()) {
      throw InputError(fmt::format("{}: LOCAL_RANK {} has no GPU: {} CUDA device(s) are visible", rank.describe(),
                                   rank.local_rank, cuda_device_count()));
    }
    run.device = at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(rank.local_rank));
    run.context.device = run.device;
  }
  // LibTorch 1.13's store client waits for an answer without a bound: a watchdog bounds the rendezvous,
  // with a margin over its own timeouts so that theirs say what happened where they can (as long
  // as the timeout, at most 5 s: a test's --dist-timeout 1 waits 2 s, not 6).
  const auto communicator = [&] {
    const auto margin = std::min<std::chrono::milliseconds>(timeout, std::chrono::seconds(5));
    parallel::ProgressWatchdog watchdog(timeout + margin, rank.describe(),
                                        "the rendezvous store did not answer" + rank.store_hint());
    return parallel::Communicator::connect(rank, run.device, timeout);
  }();
  if (o.inject_rank_failure && *o.inject_rank_failure == rank.rank) {
    std::cerr << fmt::format("graphbench: rank {}: --inject-rank-failure: killing this rank\n", rank.rank);
    std::raise(SIGKILL);
  }
  const bool rank0 = rank.rank == 0;
  std::ostream* log = (o.quiet || !rank0) ? nullptr : &std::cerr;
  if (rank0) prepare_output(run, log);
  if (log != nullptr) {
    *log << fmt::format("graphbench: suite {} ({} case(s)) from {}, data-parallel on {} rank(s) ({}, {})\n",
                        run.suite.name, run.suite.cases.size(), run.path, rank.world_size, communicator->backend(),
                        run.device.is_cuda() ? "one GPU each" : "cpu");
  }
  // Ranks other than 0 print nothing but errors: rank 0 reports for the world.
  run.context.quiet = run.context.quiet || !rank0;
  if (!rank0) run.context.progress = nullptr;
  SuiteOutcome outcome;
  {
    parallel::ProgressWatchdog watchdog(timeout, fmt::format("rank {} of {}", rank.rank, rank.world_size));
    outcome = parallel::run_suite_data_parallel(run.suite, WorkloadRegistry::global(), run.context,
                                            collect_environment(environment_request(run, command_line, rank0)),
                                            communicator, log, rank0 ? &std::cerr : nullptr);
    communicator->barrier();  // every rank is done before rank 0 writes and the store goes away
  }
  int code = outcome.exit_code();
  if (rank0) code = report_outcome(o, run, outcome, log);
  communicator->barrier();
  if (!communicator->shutdown()) {
    std::cerr << fmt::format("graphbench: rank {}: the process group did not shut down within {:g} s; exiting anyway\n",
                             rank.rank, o.dist_timeout_s);
  }
  return code;
}

}  // namespace graphbench::cli
