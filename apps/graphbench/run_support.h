// The steps of `graphbench run` that the single-process run and the ranks of a data-parallel run
// share: the suite prepared from the options, the environment request, the results written.
#pragma once

#include "options.h"

#include "graphbench/parallel/communication/rank_env.h"
#include "graphbench/engine/env/environment.h"
#include "graphbench/core/report/report_files.h"
#include "graphbench/engine/runner/suite_runner.h"

#include <ostream>
#include <string>
#include <vector>

namespace graphbench::cli {

struct PreparedRun {
  std::string path;  // the suite file
  SuiteSpec suite;   // loaded, filtered, sampling overridden
  OutputFormats formats;
  at::Device device = at::kCPU;
  CaseContext context;
  std::string directory;  // where the result files go
  int cpu_limited_cases = 0;  // cases held to kCpuCaseTimeLimitS (a CPU run without --max-time)
};

// On the CPU each case is timed for at most this long, from its probe to its last sample (the
// default limit and the suites' own are chosen for GPUs): the CPU build is for trying graphbench
// and for its tests, and a first run should take seconds, not the minutes of noisy CPU samples that
// never reach the noise target. A suite's lower limit and --max-time are kept. Every suite of
// configs/ on the 2-core CPU under it: docs/time-limits.md.
inline constexpr double kCpuCaseTimeLimitS = 3.0;

// --device: cpu, cuda or auto. InputError when cuda is asked for and cannot be had.
at::Device resolve_device(const std::string& name);

// Everything up to running: InputError on bad input (the file, a filter, an option).
PreparedRun prepare_run(const RunOptions& options);

// Creates the output directory (or checks it is writable) and removes what a killed run left;
// refuses the run (InputError) when the output directory's file system has clearly too little room
// for the results, or the temporary one for the largest package a case unpacks.
void prepare_output(const PreparedRun& run, std::ostream* log);

EnvironmentRequest environment_request(const PreparedRun& run, const std::string& command_line, bool measure);

// Prints the Markdown (unless -q), writes the result files; returns the exit code.
int report_outcome(const RunOptions& options, const PreparedRun& run, const SuiteOutcome& outcome, std::ostream* log);

// `arguments` without the option `flag` (e.g. "--nproc"), in both its forms ("--nproc N" and
// "--nproc=N"): a child process's arguments, the parent's less what only the parent acts on.
std::vector<std::string> without_option(const std::vector<std::string>& arguments, const std::string& flag);

// --nproc N: checks the request and the suite, then starts and watches N ranks (parallel/cases/launcher.h).
int launch_ranks_command(const RunOptions& options);

// A process started with RANK and WORLD_SIZE set: one rank of a data-parallel run.
int run_as_rank(const RunOptions& options, const parallel::RankEnv& rank, const std::string& command_line);

// --repetitions auto on a GPU: this many processes, each sampling at most kRoundsPerProcess rounds
// per case. The process level dominates there (Kalibera and Jones's optimum of rounds per process
// on the H100's ci runs: 63 to 378 for a process cost of 5 to 10 s; docs/measuring.md), so a few
// short processes give an interval that holds for the next run where one long one did not.
inline constexpr int kDefaultProcesses = 4;
inline constexpr int kRoundsPerProcess = 400;

// --repetitions N (N > 1): checks the request and the suite, runs N repetitions, each a process
// of its own, and writes their merged results (repetitions_command.cpp).
int run_repetitions_command(const RunOptions& options, const std::string& command_line);

}  // namespace graphbench::cli
