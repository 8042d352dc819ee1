#include "run_command.h"

#include "run_support.h"

#include "graphbench/core/errors.h"
#include "graphbench/dist/rank_env.h"
#include "graphbench/env/build_info.h"
#include "graphbench/env/environment.h"
#include "graphbench/exec/executor.h"
#include "graphbench/report/markdown_writer.h"
#include "graphbench/runner/suite_runner.h"
#include "graphbench/runner/workload_registry.h"
#include "graphbench/suite/suite_parser.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

namespace graphbench::cli {

namespace {

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

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

void apply_case_filter(SuiteSpec& suite, const std::string& list) {
  if (list.empty()) return;
  const auto wanted = split_list(list);
  for (const auto& name : wanted) {
    const bool known = std::any_of(suite.cases.begin(), suite.cases.end(), [&](const CaseSpec& c) { return c.name == name; });
    if (!known) {
      std::vector<std::string> names;
      for (const auto& c : suite.cases) names.push_back(c.name);
      throw InputError(fmt::format("--cases: suite {} has no case \"{}\" (cases: {})", suite.path, name, fmt::join(names, ", ")));
    }
  }
  suite.cases.erase(std::remove_if(suite.cases.begin(), suite.cases.end(),
                                   [&](const CaseSpec& c) { return !contains(wanted, c.name); }),
                    suite.cases.end());
}

void apply_variant_filter(SuiteSpec& suite, const std::string& list, bool quiet) {
  if (list.empty()) return;
  const auto wanted = split_list(list);
  for (const auto& v : wanted) {
    if (Variant::find(v) == nullptr) {
      throw InputError(fmt::format("--variants: unknown variant \"{}\" (known: {})", v, fmt::join(Variant::names(), ", ")));
    }
  }
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

void apply_sampling_overrides(SuiteSpec& suite, const RunOptions& o) {
  auto positive = [](const char* flag, double value) {
    if (!(value > 0)) throw InputError(fmt::format("{}: expected a positive number, got {}", flag, value));
  };
  if (o.min_samples && *o.min_samples < 1) throw InputError("--min-samples: expected a positive integer");
  if (o.max_samples && *o.max_samples < 1) throw InputError("--max-samples: expected a positive integer");
  if (o.warmup && *o.warmup < 0) throw InputError("--warmup: expected a non-negative integer");
  if (o.min_time_s) positive("--min-time", *o.min_time_s);
  if (o.max_time_s) positive("--max-time", *o.max_time_s);
  if (o.noise && !(*o.noise > 0 && *o.noise < 1)) throw InputError("--noise: expected a number in (0, 1)");
  for (auto& c : suite.cases) {
    SamplingSpec& s = c.sampling;
    if (o.warmup) s.warmup_steps = *o.warmup;
    if (o.min_samples) s.min_samples = *o.min_samples;
    if (o.max_samples) s.max_samples = *o.max_samples;
    if (o.min_time_s) s.min_time_s = *o.min_time_s;
    if (o.max_time_s) s.max_time_s = *o.max_time_s;
    if (o.noise) s.target_rel_noise = *o.noise;
    s.max_samples = std::max(s.max_samples, s.min_samples);
    s.max_time_s = std::max(s.max_time_s, s.min_time_s);
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
  if (o.epochs) {
    if (*o.epochs < 1) throw InputError(fmt::format("--epochs: expected a positive integer, got {}", *o.epochs));
    context.epochs = *o.epochs;
  }
  if (o.use_test_graph) context.use_test_graph = true;
  context.last_batch = o.last_batch;
  if (o.data_on_host) context.data_on_host = true;
  if (o.shuffle) context.shuffle = true;
  context.cold_l2 = o.l2 == "cold";
  context.profile = o.profile != "off";
  if (!o.inject_slowdown.empty()) {
    const auto eq = o.inject_slowdown.find('=');
    int factor = 0;
    if (eq != std::string::npos) {
      try {
        factor = std::stoi(o.inject_slowdown.substr(eq + 1));
      } catch (const std::exception&) {
        factor = 0;
      }
    }
    if (eq == std::string::npos || factor < 2 || Variant::find(o.inject_slowdown.substr(0, eq)) == nullptr) {
      throw InputError("--inject-slowdown: expected VARIANT=K with a known variant and an integer K >= 2, got \"" +
                       o.inject_slowdown + "\"");
    }
    context.slowdown_variant = o.inject_slowdown.substr(0, eq);
    context.slowdown_factor = factor;
  }
  return context;
}

}  // namespace

std::vector<std::string> configs_search_dirs(const std::string& configs_dir) {
  if (!configs_dir.empty()) return {configs_dir};
  std::vector<std::string> dirs{"configs"};
  if (!build_info().source_dir.empty()) dirs.push_back((std::filesystem::path(build_info().source_dir) / "configs").string());
  return dirs;
}

std::string suite_path_for_workload(const std::string& workload, const std::string& configs_dir) {
  std::vector<std::string> tried;
  for (const auto& dir : configs_search_dirs(configs_dir)) {
    const auto path = std::filesystem::path(dir) / (workload + ".json");
    if (std::filesystem::is_regular_file(path)) return path.string();
    tried.push_back(path.string());
  }
  throw InputError(fmt::format("--workload {}: no suite file {} (see `graphbench list` for the workloads and suites)",
                               workload, fmt::join(tried, " or ")));
}

PreparedRun prepare_run(const RunOptions& o) {
  PreparedRun run;
  run.path = !o.config.empty() ? o.config : suite_path_for_workload(o.workload, o.configs_dir);
  run.formats = parse_output_formats(o.formats);
  run.suite = load_suite_spec(run.path, WorkloadRegistry::global().descriptors());
  SuiteSpec& suite = run.suite;
  if (!o.last_batch.empty() && o.last_batch != "skip" && o.last_batch != "capture") {
    throw InputError("--last-batch: expected skip or capture, got \"" + o.last_batch + "\"");
  }
  apply_case_filter(suite, o.cases);
  if (o.use_train_graph) {
    for (auto& c : suite.cases) {
      if (c.kind == "training") c.variants = {Variant::named("graph")};
    }
  }
  apply_variant_filter(suite, o.variants, o.quiet);
  if (suite.cases.empty()) throw InputError(run.path + ": no case left to run after --cases / --variants");
  apply_sampling_overrides(suite, o);
  run.device = resolve_device(o.device);
  run.context = make_context(o, run.device);
  return run;
}

EnvironmentRequest environment_request(const PreparedRun& run, const std::string& command_line, bool measure) {
  const bool any_benchmark = std::any_of(run.suite.cases.begin(), run.suite.cases.end(),
                                         [](const CaseSpec& c) { return c.kind == "benchmark"; });
  EnvironmentRequest request;
  request.cuda = run.device.is_cuda();
  request.measure_bandwidth = measure && run.device.is_cuda() && any_benchmark;
  request.command_line = command_line;
  request.suite = run.suite.name;
  request.config_path = run.path;
  return request;
}

int report_outcome(const RunOptions& o, const PreparedRun& run, const SuiteOutcome& outcome, std::ostream* log) {
  const std::string directory = o.output.empty() ? "graphbench-out/" + run.suite.name : o.output;
  if (!o.quiet) std::cout << "\n" << render_markdown(outcome.report);
  try {
    for (const auto& written : write_report_files(outcome.report, directory, run.formats)) {
      if (log != nullptr) *log << "wrote " << written << "\n";
    }
  } catch (const Error& e) {
    std::cerr << "graphbench: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  return outcome.exit_code();
}

int run_command(const RunOptions& o, const std::string& command_line) {
  if (o.nproc) return launch_ranks_command(o);
  if (const auto rank = dist::read_rank_env()) return run_as_rank(o, *rank, command_line);
  const PreparedRun run = prepare_run(o);
  std::ostream* log = o.quiet ? nullptr : &std::cerr;
  if (log != nullptr) {
    *log << fmt::format("graphbench: suite {} ({} case(s)) from {} on {}\n", run.suite.name, run.suite.cases.size(),
                        run.path, run.device.is_cuda() ? "cuda" : "cpu");
  }
  const SuiteOutcome outcome = run_suite(run.suite, WorkloadRegistry::global(), run.context,
                                         collect_environment(environment_request(run, command_line, true)), log);
  return report_outcome(o, run, outcome, log);
}

}  // namespace graphbench::cli
