#include "run_command.h"

#include "run_option_checks.h"
#include "run_support.h"
#include "suite_selection.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/interrupt.h"
#include "graphbench/parallel/communication/rank_env.h"
#include "graphbench/engine/env/build_info.h"
#include "graphbench/engine/env/environment.h"
#include "graphbench/engine/exec/executor.h"
#include "graphbench/core/report/writers.h"
#include "graphbench/core/report/output_space.h"
#include "graphbench/core/report/unpack_space.h"
#include "graphbench/engine/runner/suite_runner.h"
#include "graphbench/engine/runner/workload_registry.h"
#include "graphbench/core/suite/suite_parser.h"
#include "graphbench/engine/timing/kernel_profile.h"
#include "stop_signals.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <tuple>

namespace graphbench::cli {

std::vector<std::string> without_option(const std::vector<std::string>& arguments, const std::string& flag) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == flag) {
      ++i;  // and its value
      continue;
    }
    if (arguments[i].rfind(flag + "=", 0) == 0) continue;
    out.push_back(arguments[i]);
  }
  return out;
}

at::Device resolve_device(const std::string& name) {
  if (name == "cpu") return at::kCPU;
  const bool cuda = cuda_graphs_available();
  if (name == "cuda") {
    if (!cuda) {
      throw InputError(build_info().with_cuda
                           ? "--device cuda: no CUDA device is visible"
                           : "--device cuda: this graphbench was built against a LibTorch without CUDA (" +
                                 build_info().libtorch_version + "); rebuild with Torch_DIR pointing at a CUDA LibTorch");
    }
    return at::kCUDA;
  }
  return cuda ? at::Device(at::kCUDA) : at::Device(at::kCPU);  // auto
}

namespace {

// The overrides are checked by check_run_options (run_option_checks.h) when the options are read.
void apply_sampling_overrides(SuiteSpec& suite, const RunOptions& o) {
  for (auto& c : suite.cases) {
    SamplingSpec& s = c.sampling;
    if (o.warmup) s.warmup_steps = *o.warmup;
    if (o.min_samples) s.min_samples = *o.min_samples;
    if (o.max_samples) s.max_samples = *o.max_samples;
    if (o.min_time_s) s.min_time_s = *o.min_time_s;
    if (o.max_time_s) s.max_time_s = *o.max_time_s;
    if (o.noise) s.target_rel_noise = *o.noise;
    // A bound given on the command line wins over the suite's other bound: --max-time 0.3 is a
    // limit even where the suite asks for 0.5 s of samples (and --min-samples 50 raises the
    // suite's max_samples, as before).
    if (o.max_time_s && !o.min_time_s) s.min_time_s = std::min(s.min_time_s, s.max_time_s);
    if (o.max_samples && !o.min_samples) s.min_samples = std::min(s.min_samples, s.max_samples);
    s.max_samples = std::max(s.max_samples, s.min_samples);
    s.max_time_s = std::max(s.max_time_s, s.min_time_s);
  }
}

void apply_gradient_sync_overrides(SuiteSpec& suite, const RunOptions& o) {
  for (auto& c : suite.cases) {
    if (o.grad_dtype) c.gradient_sync.dtype = *o.grad_dtype;
    if (o.grad_bucket_mb) c.gradient_sync.bucket_mb = *o.grad_bucket_mb;
    if (o.grad_overlap) c.gradient_sync.overlap = *o.grad_overlap == "on";
    if (o.grad_chunk_mb) c.gradient_sync.chunk_mb = *o.grad_chunk_mb;
    if (o.grad_transport) c.gradient_sync.transport = *o.grad_transport;
  }
}

CaseContext make_context(const RunOptions& o, at::Device device) {
  CaseContext context;
  context.device = device;
  context.data_dir = o.data_dir;
  context.out = &std::cout;
  context.quiet = o.quiet;
  // Progress lines go to stderr, and only when it is a terminal.
  context.progress = !o.quiet && isatty(STDERR_FILENO) != 0 ? &std::cerr : nullptr;
  context.seed = o.seed;
  if (o.epochs) context.epochs = *o.epochs;
  if (o.use_test_graph) context.use_test_graph = true;
  context.last_batch = o.last_batch;
  if (o.data_on_host) context.data_on_host = true;
  if (o.shuffle) context.shuffle = true;
  context.cold_l2 = o.l2 == "cold";
  context.profile = o.profile != "off";
  // On the CPU the default limit holds for the whole case too (run_support.h, kCpuCaseTimeLimitS).
  context.time_limit_cuts_validation = o.max_time_s.has_value() || !device.is_cuda();
  context.energy = o.energy == "on" && device.is_cuda();
  if (o.energy == "on" && !device.is_cuda()) {
    // Not an error, as with --trace: the run measures what it can.
    std::cerr << "graphbench: warning: --energy on: energy is read from a GPU's NVML counter and this run is on the "
                 "CPU; no energy figures are written\n";
  }
  if (!o.trace_dir.empty()) {
    if (!device.is_cuda() || !kernel_profiler_available(true)) {
      // Not an error: the run measures what it can; there is just no trace of it.
      std::cerr << fmt::format("graphbench: warning: --trace {}: {}; no traces are written\n", o.trace_dir,
                               device.is_cuda() ? "this graphbench has no step tracer (a CUDA build against "
                                                  "LibTorch 2.x has one)"
                                                : "traces show the device's kernels, and this run is on the CPU");
    } else {
      context.trace_dir = o.trace_dir;
    }
  }
  if (!o.inject_slowdown.empty()) {
    std::tie(context.slowdown_variant, context.slowdown_factor) = slowdown_of(o.inject_slowdown);
  }
  return context;
}

}  // namespace

PreparedRun prepare_run(const RunOptions& o) {
  // Everything is checked before anything runs: the suite, the options (the output directory is
  // checked by prepare_output_directory, by the process that writes it).
  PreparedRun run;
  SelectedSuite selected = select_suite(o, WorkloadRegistry::global().descriptors(), o.quiet ? nullptr : &std::cerr);
  run.path = std::move(selected.path);
  run.formats = std::move(selected.formats);
  run.suite = std::move(selected.suite);
  SuiteSpec& suite = run.suite;
  apply_sampling_overrides(suite, o);
  apply_gradient_sync_overrides(suite, o);
  run.device = resolve_device(o.device);
  if (!run.device.is_cuda() && !o.max_time_s) {
    // The suites' limits are meant for GPUs: on the CPU each case is held to at most the CPU's
    // (a suite's lower limit is kept).
    for (auto& c : suite.cases) {
      SamplingSpec& s = c.sampling;
      if (s.max_time_s <= kCpuCaseTimeLimitS) continue;
      s.max_time_s = kCpuCaseTimeLimitS;
      s.min_time_s = std::min(s.min_time_s, s.max_time_s);
      ++run.cpu_limited_cases;
    }
  }
  run.context = make_context(o, run.device);
  run.directory = o.output.empty() ? "graphbench-out/" + suite.name : o.output;
  return run;
}

void prepare_output(const PreparedRun& run, std::ostream* log) {
  for (const auto& removed : prepare_output_directory(run.directory)) {
    if (log != nullptr) *log << "removed " << removed << ", a temporary file of a run that was killed\n";
  }
  std::size_t records = 0;
  std::uint64_t needed = 0;
  for (const CaseSpec& c : run.suite.cases) {
    records += c.variants.size();
    needed += minimum_result_bytes(c.variants.size(), c.sampling.min_samples, run.formats);
  }
  check_output_space(run.directory, available_bytes(run.directory), needed, records);
  // Room for the packages the cases unpack when they load: the largest, as they load one at a time.
  std::vector<UnpackNeed> unpacked;
  for (const CaseSpec& c : run.suite.cases) {
    if (const Workload* workload = WorkloadRegistry::global().find(c.workload)) {
      for (UnpackNeed& need : workload->unpack_needs(c)) unpacked.push_back(std::move(need));
    }
  }
  check_unpack_space(unpacked, available_bytes);
}

EnvironmentRequest environment_request(const PreparedRun& run, const std::string& command_line, bool measure) {
  const bool any_benchmark = std::any_of(run.suite.cases.begin(), run.suite.cases.end(),
                                         [](const CaseSpec& c) { return c.kind == "benchmark"; });
  EnvironmentRequest request;
  request.cuda = run.device.is_cuda();
  request.measure_bandwidth = measure && run.device.is_cuda() && any_benchmark;
  request.command_line = command_line;
  request.suite = run.suite.name;
  request.config_path = run.path == kSuiteFromStdin ? kStdinName : run.path;
  return request;
}

int report_outcome(const RunOptions& o, const PreparedRun& run, const SuiteOutcome& outcome, std::ostream* log) {
  const std::string& directory = run.directory;
  // A repetition's table is not the run's: the merged run prints one.
  if (!o.quiet && o.repetition_dir.empty()) std::cout << "\n" << render_console(outcome.report);
  const int written = write_or_rescue(outcome.report, run.suite.name, directory, run.formats, log, "this run",
                                      fmt::format(" (results.json's format; {} keeps its earlier files)", directory));
  if (written != kExitOk) return written;
  if (stop_requested()) {
    std::cerr << fmt::format("graphbench: interrupted by {}: wrote the {} finished record(s) to {}\n",
                             signal_name(stop_signal()), outcome.report.records.size(), directory);
    return kExitInterruptedBase + stop_signal();
  }
  return outcome.exit_code();
}

namespace {

// --repetitions auto: kDefaultProcesses shorter processes for a benchmark run on a GPU, where a
// step's time moves between processes (docs/measuring.md, repetitions); one process elsewhere:
// a repetition itself, a data-parallel run or rank, a suite on standard input, a run on the CPU,
// a suite with a training case (each process would train again), a sweep or a case that loads a
// model file (each process would load every model again: a decoder's package is gigabytes).
int automatic_repetitions(const RunOptions& o) {
  if (!o.repetition_dir.empty() || o.nproc || parallel::read_rank_env() || o.config == kSuiteFromStdin) return 1;
  if (!resolve_device(o.device).is_cuda()) return 1;
  const PreparedRun run = prepare_run(o);
  for (const CaseSpec& c : run.suite.cases) {
    if (c.kind != "benchmark" || c.sweep_point || c.params.contains("path")) return 1;
  }
  return kDefaultProcesses;
}

}  // namespace

int run_command(const RunOptions& given, const std::string& command_line) {
  RunOptions o = given;
  if (o.repetitions == 0) {
    o.repetitions = automatic_repetitions(o);
    if (o.repetitions > 1) o.rounds_per_process = kRoundsPerProcess;
  }
  if (o.repetitions > 1) return run_repetitions_command(o, command_line);
  if (o.nproc) return launch_ranks_command(o);
  if (const auto rank = parallel::read_rank_env()) return run_as_rank(o, *rank, command_line);
  PreparedRun run = prepare_run(o);
  std::ostream* log = o.quiet ? nullptr : &std::cerr;
  if (!o.repetition_dir.empty()) {
    // One repetition of --repetitions N: its results go where the merging process reads them.
    run.directory = o.repetition_dir;
    if (o.inject_repetition_failure && *o.inject_repetition_failure == o.repetition_index) {
      std::cerr << fmt::format("graphbench: repetition {}: --inject-repetition-failure: killing this process\n",
                               o.repetition_index);
      std::raise(SIGKILL);
    }
  }
  prepare_output(run, log);
  if (log != nullptr) {
    *log << fmt::format("graphbench: suite {} ({} case(s)) from {} on {}\n", run.suite.name, run.suite.cases.size(),
                        run.path, run.device.is_cuda() ? "cuda" : "cpu");
    if (run.cpu_limited_cases > 0) {
      *log << fmt::format("graphbench: on the CPU each case is timed for at most {:g} s, validation and training "
                          "included (the suites' limits are meant for GPUs; --max-time sets another); a case that "
                          "cannot fit is skipped before it starts, with the --max-time it needs\n",
                          kCpuCaseTimeLimitS);
    }
  }
  install_stop_handlers();
  const SuiteOutcome outcome = run_suite(run.suite, WorkloadRegistry::global(), run.context,
                                         collect_environment(environment_request(run, command_line, true)), log,
                                         &std::cerr);
  return report_outcome(o, run, outcome, o.repetition_dir.empty() ? log : nullptr);
}

}  // namespace graphbench::cli
