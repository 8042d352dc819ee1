#include "run_command.h"

#include "run_option_checks.h"
#include "run_support.h"

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
#include "graphbench/core/suite/case_filter.h"
#include "graphbench/core/suite/suite_parser.h"
#include "graphbench/core/suite/scope_fields.h"
#include "graphbench/core/suite/sweep_fields.h"
#include "graphbench/engine/timing/kernel_profile.h"
#include "stop_signals.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <tuple>

namespace graphbench::cli {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

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

void apply_case_filter(SuiteSpec& suite, const std::vector<std::string>& values) {
  if (values.empty()) return;
  const auto wanted = case_names_of(values);
  for (const auto& name : wanted) {
    const bool known = std::any_of(suite.cases.begin(), suite.cases.end(), [&](const CaseSpec& c) { return c.name == name; });
    if (!known) {
      std::vector<std::string> names;
      for (const auto& c : suite.cases) names.push_back(c.name);
      throw InputError(fmt::format("--cases: suite {} has no case \"{}\" (cases: {}; a comma separates names, \\, is a "
                                   "comma inside one)",
                                   suite.path, name, fmt::join(names, ", ")));
    }
  }
  suite.cases.erase(std::remove_if(suite.cases.begin(), suite.cases.end(),
                                   [&](const CaseSpec& c) { return !contains(wanted, c.name); }),
                    suite.cases.end());
}

void apply_variant_filter(SuiteSpec& suite, const std::optional<std::string>& list, bool quiet) {
  if (!list) return;
  const auto wanted = variant_names_of(*list);
  std::vector<CaseSpec> kept;
  for (auto& c : suite.cases) {
    const auto& supported = WorkloadRegistry::global().find(c.workload)->descriptor().variants;
    std::vector<Variant> variants;
    for (const auto& v : wanted) {
      const Variant& variant = Variant::named(v);
      // A training run feeds every batch: the ":replay" forms are for timed steps only.
      if (c.kind == "training" && variant.inputs_in_place()) continue;
      if (std::find(supported.begin(), supported.end(), variant) != supported.end()) variants.push_back(variant);
    }
    if (variants.empty()) {
      if (!quiet) std::cerr << fmt::format("note: case {} has none of the variants asked for; left out\n", c.name);
      continue;
    }
    c.variants = variants;
    kept.push_back(std::move(c));
  }
  suite.cases = std::move(kept);
}

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

// The suite file of --suite (--workload) NAME: <dir>/NAME.json, trying --configs-dir, ./configs and the
// source tree's configs/ in turn; InputError saying where it looked.
std::string suite_path_for_workload(const std::string& workload, const std::string& configs_dir) {
  std::vector<std::string> tried;
  for (const auto& dir : configs_search_dirs(configs_dir)) {
    const auto path = std::filesystem::path(dir) / (workload + ".json");
    if (std::filesystem::is_regular_file(path)) return path.string();
    tried.push_back(path.string());
  }
  // A workload's name is not a suite's: say which suites hold its cases.
  std::string hint = "see `graphbench list` for the suites and their cases";
  if (WorkloadRegistry::global().find(workload) != nullptr) {
    const auto holders = suites_with_workload(configs_search_dirs(configs_dir), workload);
    hint = holders.empty() ? fmt::format("{} is a workload, not a suite: no suite here has a case of it; write one "
                                         "(docs/spec.md) and run it with run --config FILE",
                                         workload)
                           : fmt::format("{} is a workload, not a suite; its cases are in {}", workload,
                                         fmt::join(holders, "; "));
  }
  throw InputError(fmt::format("--suite {}: no suite file {} ({})", workload, fmt::join(tried, " or "), hint));
}

}  // namespace

PreparedRun prepare_run(const RunOptions& o) {
  // Everything is checked before anything runs: the suite, the options (the output directory is
  // checked by prepare_output_directory, by the process that writes it).
  PreparedRun run;
  run.path = !o.config.empty() ? o.config : suite_path_for_workload(o.workload, o.configs_dir);
  run.formats = parse_output_formats(o.formats);
  run.suite = load_suite_spec(run.path, WorkloadRegistry::global().descriptors());
  SuiteSpec& suite = run.suite;
  apply_case_filter(suite, o.cases);
  if (!o.filter.empty()) apply_case_pattern(suite, o.filter);
  apply_sweep_options(suite, o.sweeps, WorkloadRegistry::global().descriptors());
  expand_scope_sweeps(suite);  // first: a scope's point keeps the case's integer sweep, expanded next
  expand_sweeps(suite, WorkloadRegistry::global().descriptors());
  if (o.use_train_graph) {
    for (auto& c : suite.cases) {
      if (c.kind == "training") c.variants = {Variant::named("graph")};
    }
  }
  apply_variant_filter(suite, o.variants, o.quiet);
  if (suite.cases.empty()) throw InputError(run.path + ": no case left to run after --cases / --filter / --variants");
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
