// graphbench: measures what CUDA Graphs buy for deep-learning work.
// The command line (CLI11) -> options -> library calls; exceptions are caught here, once, and
// mapped to the documented exit codes: 0 ok, 1 a case failed or a regression, 2 bad input.
#include "cli.h"
#include "run_command.h"
#include "run_option_checks.h"
#include "stop_signals.h"
#include "suite_selection.h"

#include "graphbench/core/compare/compare.h"
#include "graphbench/core/compare/calibration.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/version.h"
#include "graphbench/core/suite/gradient_sync_fields.h"
#include "graphbench/core/workload/capture_scope.h"
#include "graphbench/core/workload/variant.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>

namespace {

using graphbench::cli::CalibrateCliOptions;
using graphbench::cli::CompareCliOptions;
using graphbench::cli::RunOptions;

// The front hands what needs LibTorch to graphbench-run beside it, with the same arguments: the
// process becomes that program (its exit code is the run's). Returns only when it cannot start it.
int hand_to_runner(char** argv) {
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  std::string runner = "graphbench-run";
  if (n > 0) {
    self[n] = '\0';
    const std::string path(self);
    runner = path.substr(0, path.rfind('/') + 1) + runner;
  }
  execv(runner.c_str(), argv);
  std::cerr << "graphbench: error: cannot start " << runner << " (" << std::strerror(errno)
            << "), the part of graphbench that runs workloads: build it beside this program (cmake --build build)\n";
  return graphbench::kExitFailure;
}

// The options CLI11 cannot read into RunOptions as they are: the seed and the repetitions, read as
// text and checked after parsing. RunOptions' std::optional fields are set only by the flags given.
struct RawRunOptions {
  RunOptions options;
  std::string seed = "1";
  std::string repetitions = "auto";
};

void add_run_options(CLI::App& app, RawRunOptions& raw) {
  RunOptions& o = raw.options;
  app.add_option("--variants", o.variants, "Only these variants, comma-separated (" + fmt::format("{}", fmt::join(graphbench::Variant::names(), ",")) + ")");
  app.add_option("--cases", o.cases, "Only these cases of the suite, comma-separated; may be repeated; write \\, for a comma inside a case name")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--filter", o.filter,
                 "Only the cases whose name REGEX matches (unanchored; ^ and $ anchor), or else the variants whose "
                 "case/variant it matches (e.g. --filter large, --filter 'small/graph$'); graphbench list shows each "
                 "suite's cases");
  app.add_option("--device", o.device, "cpu, cuda, or auto (cuda when a GPU is usable)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))->capture_default_str();
  app.add_option("-o,--output", o.output, "Directory for results.json/.csv/.md (default graphbench-out/<suite>)");
  app.add_option("--format", o.formats, "Files to write: a comma-separated list of json, csv, md, gbench (results.gbench.json: Google Benchmark's JSON); results.json is always written (compare reads it)")->capture_default_str();
  app.add_flag("-q,--quiet", o.quiet, "Print nothing but errors (the result files are still written)");
  app.add_option("--data-dir", o.data_dir, "MNIST-format data (default $GRAPHBENCH_DATA, else /usr/share/datasets/fashion-mnist)");
  app.add_option("--epochs", o.epochs, "Epochs of training cases (overrides the suite)");
  app.add_flag("--use-train-graph", o.use_train_graph, "Training cases train with the captured graph (the tutorial's flag)");
  app.add_flag("--use-test-graph", o.use_test_graph, "Training cases test with a captured graph (the tutorial's flag)");
  app.add_flag("--data-on-host", o.data_on_host, "Training cases keep the data in host memory and copy every batch to the device (the tutorial's way; default: on the device, batches gathered there)");
  app.add_flag("--shuffle", o.shuffle, "Training cases visit the training data in a permutation per epoch drawn from --seed (default: the tutorial's sequential order)");
  app.add_option("--last-batch", o.last_batch, "The short last batch of an epoch: skip (the tutorial's way, default) or capture (a second graph for its shape)");
  // Read as text: CLI11 would wrap "-1" and saturate "2^64" into a seed nobody asked for.
  app.add_option("--seed", raw.seed, "Seed of weights, inputs and dropout (an integer in [0, 2^64 - 1])")
      ->capture_default_str();
  app.add_option("--sweep", o.sweeps,
                 "Run every case of the suite at each value of one axis, AXIS=V1,V2,... in increasing order (e.g. "
                 "batch=1,2,4,8,16; the axes of each workload: graphbench list), and decide which sizes to capture "
                 "(results.md's Sweeps; docs/results.md). Also scope=S1,S2,... (e.g. scope=full,layer,attention-out; "
                 "the capture scopes: " + graphbench::capture_scope_names() +
                 "): each case once per scope, alone or beside an integer axis (give --sweep twice), and decide "
                 "which scope to capture (results.md's Scopes; docs/scopes.md)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--configs-dir", o.configs_dir, "Where --suite finds NAME.json (default ./configs, then the source tree's)");
  auto* group = app.add_option_group("Sampling", "Override the suite's sampling settings for every case");
  group->add_option("--warmup", o.warmup, "Untimed steps per variant before sampling");
  group->add_option("--min-samples", o.min_samples, "Samples per variant at least");
  group->add_option("--max-samples", o.max_samples, "Samples per variant at most");
  group->add_option("--min-time", o.min_time_s, "Seconds of measured time per variant at least");
  group->add_option("--max-time", o.max_time_s, "Time limit of each case in seconds: validation (up to half), warm-up and sampling, one step of each at least (docs/measuring.md)");
  group->add_option("--noise", o.noise, "Stop once each median's relative 95% half-width is below this (e.g. 0.01)");
  app.add_option("--l2", o.l2, "L2 cache between timed steps (CUDA): hot (left warm, back-to-back steps) or cold (flushed before every step, each step timed alone)")
      ->check(CLI::IsMember({"hot", "cold"}))->capture_default_str();
  app.add_option("--profile", o.profile, "Profile each variant's kernels after its timed samples (CUDA): on or off")
      ->check(CLI::IsMember({"on", "off"}))->capture_default_str();
  app.add_option("--energy", o.energy,
                 "Energy per step (CUDA, NVML's energy counter): after its timed samples each variant runs alone until "
                 "the counter has updated 20 times (at most 5 s); on or off (docs/measuring.md)")
      ->check(CLI::IsMember({"on", "off"}))->capture_default_str();
  app.add_option("--trace", o.trace_dir,
                 "Write a trace of a few eager steps and replays of each variant to DIR/<case>.<variant>.trace.json "
                 "(data-parallel: DIR/<case>.<variant>.rank<R>.trace.json, one per rank) (Chrome trace format: Perfetto, chrome://tracing; GPU runs; scripts/trace_timeline.py draws one "
                 "step of two variants as a PNG; docs/measuring.md)");
  // Test hooks, for the CLI tests (tests/cli): out of --help (an option group without a name is hidden).
  app.add_option("--inject-slowdown", o.inject_slowdown, "Test only: VARIANT=K runs every step of VARIANT K times (to check that compare catches it)")
      ->group("");
  auto* dist = app.add_option_group("Data parallel", "Several ranks, one device each (docs/distributed.md)");
  dist->add_option("--nproc", o.nproc, "Start N ranks of this run on this host (one GPU each on CUDA) and run its cases data-parallel");
  dist->add_option("--dist-timeout", o.dist_timeout_s, "Seconds a rank waits for the others (rendezvous, collectives) before it gives up")
      ->capture_default_str();
  dist->add_option("--grad-dtype", o.grad_dtype, "Gradients all-reduced as computed (float32) or compressed to bfloat16 and back (every case; the suite's \"grad_dtype\" otherwise)")
      ->check(CLI::IsMember(graphbench::gradient_dtypes()));
  dist->add_option("--grad-bucket-mb", o.grad_bucket_mb, "Cap of a gradient bucket in MiB (every case; the suite's \"grad_bucket_mb\" otherwise, default 25)");
  dist->add_option("--grad-overlap", o.grad_overlap, "Each bucket's all-reduce during the backward pass (on) or after it (off) (every case; the suite's \"grad_overlap\" otherwise, default on)")
      ->check(CLI::IsMember({"on", "off"}));
  dist->add_option("--grad-chunk-mb", o.grad_chunk_mb, "Compute and all-reduce a weight's gradient larger than this many MiB in row chunks of at most this much, each all-reduced as soon as it is computed, while the overlap is on; 0: whole (every case; the suite's \"grad_chunk_mb\" otherwise, default 0; docs/distributed.md)");
  dist->add_option("--grad-transport", o.grad_transport, "How each bucket's sum travels between the ranks: collective (the process group's all-reduce: NCCL, Gloo on the CPU) or copy-engine (copies into the other GPUs' memory on their copy engines, then a sum on each GPU: GPUs of one host that reach each other, e.g. over NVLink; it leaves the multiprocessors to the backward pass) or symmetric-memory (LibTorch's two-shot all-reduce over memory every GPU of one host maps; LibTorch 2.5 or later with CUDA) or auto (what was measured to pay on GPUs of one host: copy-engine for two ranks with gradient chunks, else symmetric-memory where this build has it; collective across hosts and on the CPU) (every case; the suite's \"grad_transport\" otherwise, default collective; docs/distributed.md)")
      ->check(CLI::IsMember(graphbench::gradient_transports()));
  app.add_option("--inject-rank-failure", o.inject_rank_failure, "Test only: RANK kills itself right after the rendezvous (to check that the others end)")
      ->group("");
  // Read as text, for a message that says what is expected ("--repetitions 2.5", "--repetitions 0").
  app.add_option("--repetitions", raw.repetitions,
                 "Run the whole run N times, each time in a process of its own, and merge the results: one record "
                 "per case and variant with every repetition's samples and intervals that include the spread "
                 "between processes. auto (the default): 4 shorter processes (at most 400 rounds per case each) "
                 "for a benchmark run on a GPU, 1 elsewhere (docs/measuring.md, repetitions)")
      ->capture_default_str();
  app.add_option("--repetition-dir", raw.options.repetition_dir, "Internal: run as one repetition, results.json into DIR")
      ->group("");
  app.add_option("--repetition-index", raw.options.repetition_index, "Internal: the number of this repetition")->group("");
  app.add_option("--inject-repetition-failure", o.inject_repetition_failure,
                 "Test only: repetition K kills itself before running (to check that the others are kept)")
      ->group("");
}

// 1 to `max_length` decimal digits, nothing else (no sign, no space).
bool decimal_digits(const std::string& text, std::size_t max_length) {
  return !text.empty() && text.size() <= max_length && text.find_first_not_of("0123456789") == std::string::npos;
}

// "--repetitions": auto (0) or a positive integer (at most 1000).
int parse_repetitions(const std::string& text) {
  if (text == "auto") return 0;
  const int value = decimal_digits(text, 4) ? std::stoi(text) : 0;
  if (value < 1 || value > 1000) {
    throw graphbench::InputError(fmt::format("--repetitions: expected auto or a whole number of runs from 1 to 1000 "
                                             "(each in a process of its own), got \"{}\"",
                                             text));
  }
  return value;
}

// "--seed": decimal digits only, at most 2^64 - 1.
std::uint64_t parse_seed(const std::string& text) {
  try {
    if (decimal_digits(text, 20)) return std::stoull(text);
  } catch (const std::out_of_range&) {
  }
  throw graphbench::InputError(fmt::format("--seed: expected an integer in [0, 2^64 - 1], got \"{}\"", text));
}

// The run options read and checked (run_option_checks.h): bad input never waits for LibTorch.
RunOptions finish(const RawRunOptions& raw, int argc, char** argv) {
  RunOptions o = raw.options;
  o.seed = parse_seed(raw.seed);
  o.repetitions = parse_repetitions(raw.repetitions);
  o.arguments.assign(argv + 1, argv + argc);
  graphbench::cli::check_run_options(o);
  return o;
}

// "0.05" or "5%" -> 0.05, in [0, `below`); InputError naming `flag` otherwise.
double parse_fraction(const std::string& flag, const std::string& text, double below) {
  try {
    std::size_t used = 0;
    double value = std::stod(text, &used);
    const std::string rest = text.substr(used);
    if (rest == "%") value /= 100.0;
    else if (!rest.empty()) throw std::invalid_argument(text);
    if (!(value >= 0 && value < below)) throw std::invalid_argument(text);
    return value;
  } catch (const std::exception&) {
    const std::string bound = std::isfinite(below) ? fmt::format(" (below {})", below) : "";
    throw graphbench::InputError(fmt::format("{}: expected a fraction like 0.05 or a percentage like 5%{}, got \"{}\"",
                                             flag, bound, text));
  }
}

// --threshold: a fraction of at most 1 (100%). "--threshold 5" meant 5% but reads 500%: refused,
// saying so, rather than gating nothing below a 6x slowdown.
double parse_threshold(const std::string& text) {
  const double value = parse_fraction("--threshold", text, std::numeric_limits<double>::infinity());
  if (value <= 1.0) return value;
  if (!text.empty() && text.back() == '%') {
    throw graphbench::InputError(fmt::format("--threshold: expected at most 100%, got \"{}\"", text));
  }
  throw graphbench::InputError(fmt::format("--threshold: \"{}\" is a fraction, {:g}%; a threshold is at most 1 (100%): for "
                                           "{} percent write {}% or {:g}",
                                           text, value * 100.0, text, text, value / 100.0));
}

// Options of the main command given together with a subcommand: they would be ignored, so they
// are refused ("graphbench --cases x run --config f" or "--workload w run --config f").
void check_no_stray_options(const CLI::App& app, const CLI::App& subcommand) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0) continue;
    const std::string name = option->get_name();
    if (name == "--help" || name == "--version") continue;
    if (name == "--configs-dir" && subcommand.get_name() == "list") continue;  // where list looks
    if (name == "--suite") {
      throw graphbench::InputError(fmt::format("--suite (--workload) and {} both say what to run: give one of them",
                                               subcommand.get_name() == "run" ? "run --config" : subcommand.get_name()));
    }
    throw graphbench::InputError(fmt::format("{} is an option of the main command; with `{}` put it after the "
                                             "subcommand (or leave it out)",
                                             option->get_name(false, true), subcommand.get_name()));
  }
}

// The suites --workload can run, for --help: the stems of the first configs directory found.
std::string suite_names_text() {
  const auto names = graphbench::cli::suite_names(graphbench::cli::configs_search_dirs(""));
  if (names.empty()) return "none found: see --configs-dir";
  return fmt::format("{}", fmt::join(names, ", "));
}

// A bare `graphbench`: what to type, in a few lines (the whole --help is long).
std::string short_usage() {
  return "usage: graphbench --suite NAME [options]        run the suite configs/NAME.json\n"
         "       graphbench run --config FILE [options]    run a suite file\n"
         "       graphbench list                           workloads, variants, suites and their cases\n"
         "       graphbench compare BASELINE CURRENT       the CI regression gate (sharper with graphbench calibrate)\n"
         "       graphbench --help                         every option\n"
         "suites: " + suite_names_text() + "\n";
}

std::string joined_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + std::string(argv[i]);
  return line;
}

}  // namespace

int graphbench::cli::run_cli(int argc, char** argv, const LibTorchCommands* torch) {
  graphbench::cli::install_crash_handlers();
  if (std::getenv("GRAPHBENCH_TEST_CRASH") != nullptr) graphbench::cli::crash_for_test();
  // The version names the LibTorch: graphbench-run says it.
  if (torch == nullptr && std::find_if(argv + 1, argv + argc, [](const char* a) { return std::strcmp(a, "--version") == 0; }) != argv + argc) {
    return hand_to_runner(argv);
  }
  CLI::App app{"graphbench: runs each workload eagerly and as a captured CUDA graph, checks that both compute "
               "the same thing, times both, and writes speedup tables (JSON, CSV, Markdown).",
               "graphbench"};
  if (torch != nullptr) app.set_version_flag("--version", torch->version());
  app.footer(
      "Examples:\n"
      "  graphbench --suite gelu                          the suite configs/gelu.json (also --workload gelu)\n"
      "  graphbench --suite gelu --filter large           its cases whose name matches a pattern\n"
      "  graphbench --suite mnist --use-train-graph       the CUDA-graph tutorial's MNIST run\n"
      "  graphbench run --config configs/blog.json        a suite file\n"
      "  graphbench compare base new --threshold 5% [--aa base2] [--json verdicts.json]   two runs' -o folders\n"
      "  graphbench calibrate a/results.json b/results.json c/results.json d/results.json -o gate-calibration.json\n"
      "  graphbench --suite ci --repetitions 3            the suite 3 times, each in a process of its own, merged\n"
      "  graphbench list                                  workloads, variants, suites\n"
      "  graphbench report out/results.json               results.md/.csv written again from a run's JSON\n"
      "  graphbench run --config configs/ddp.json --nproc 2   data-parallel on 2 GPUs (docs/distributed.md)\n"
      "\nExit codes: 0 every case ok or skipped (compare: no regression); 1 a case failed (compare: a\n"
      "regression); 2 bad input or usage; 130/143 stopped by SIGINT/SIGTERM (the finished cases are\n"
      "written, the run marked interrupted). Suite format: docs/spec.md; result files: docs/results.md.");

  RawRunOptions top;
  // --workload is the option's first spelling, kept for the scripts and docs that use it; a suite
  // holds cases of one or more workloads, so --suite says what it is.
  app.add_option("-s,--suite,-w,--workload", top.options.workload,
                 "Run the suite NAME.json of the configs directory (" + suite_names_text() + "); graphbench list shows their cases");
  add_run_options(app, top);

  RawRunOptions sub;
  CLI::App* run = app.add_subcommand("run", "Run every case and variant of a suite file");
  run->add_option("-c,--config", sub.options.config, "The suite file (configs/*.json); - reads the suite from standard input")->required();
  add_run_options(*run, sub);

  CLI::App* list = app.add_subcommand("list", "List workloads, their parameters, variants, suites and their cases");

  std::string report_input, report_output, report_formats = "json,csv,md";
  bool report_quiet = false;
  CLI::App* report = app.add_subcommand(
      "report", "Write the result files of an earlier run again from its results.json (nothing is run): this "
                "version's tables and verdicts");
  report->add_option("results", report_input, "An earlier run's results.json")->required();
  report->add_option("-o,--output", report_output, "Directory for the files (default: the folder of RESULTS)");
  report->add_option("--format", report_formats, "Files to write: a comma-separated list of json, csv, md, gbench; "
                                                 "the folder's other result files are removed, as a run does")
      ->capture_default_str();
  report->add_flag("-q,--quiet", report_quiet, "Print nothing but errors");

  CompareCliOptions cmp;
  CLI::App* compare = app.add_subcommand(
      "compare",
      "The CI regression gate: compare two runs (their results.json files or output folders). Without a calibration "
      "or --aa each row is judged by the runs' processes (a run on a GPU is several by default; --repetitions N), and "
      "is SLOWER only past the run-level floor of its kind, read from its records: device-bound 6%, mixed 25%, "
      "host-bound or unknown 75%. Beside each step time: the device time per step (floor 6%) and the counts "
      "(kernels, launches, graph nodes, pool bytes), compared exactly. For a sharper gate, calibrate it on the CI "
      "machine: graphbench calibrate RUN1 RUN2 RUN3 ... -o BASELINE_DIR; compare then finds BASELINE_DIR/"
      "gate-calibration.json by itself (docs/ci.md)");
  compare->add_option("baseline", cmp.baseline, "Baseline results.json, or the folder of a run (-o DIR) holding it")->required();
  compare->add_option("current", cmp.current, "Current results.json, or the folder of a run holding it")->required();
  compare->add_option("--threshold", cmp.threshold, "Smallest slowdown that counts, e.g. 5% or 0.05, at most 100% (never below the measured noise)")
      ->capture_default_str();
  compare->add_option("--metric", cmp.metric, "time: per-step times; speedup: each variant's ratio to eager within its run (cancels drift between machines)")
      ->check(CLI::IsMember({"time", "speedup"}))->capture_default_str();
  compare->add_option("--json,--dump-to-json", cmp.json_path,
                      "Also write the verdicts to FILE as JSON, one row per case, variant and measure (docs/ci.md)");
  compare->add_option("--aa", cmp.aa_baseline, "A second baseline run of the same code: the two baselines' difference sets each record's run-to-run noise floor (A/A calibration)");
  compare->add_flag("--allow-missing", cmp.allow_missing,
                    "A record ok in BASELINE and skipped, missing or with fewer than --min-samples samples in CURRENT "
                    "is not a regression (by default it is)");
  compare->add_flag("--fail-on-missing", cmp.fail_on_missing, "Deprecated: the default now (see --allow-missing)")
      ->group("Deprecated");
  compare->add_option("--min-samples", cmp.min_samples, "Fewer samples than this on either side: FEW SAMPLES, no interval")->capture_default_str();
  compare->add_option("--accuracy-tolerance", cmp.accuracy_tolerance,
                      "Training runs: a drop of final test accuracy beyond this fails the gate, e.g. 0.01 or 1%")
      ->capture_default_str();
  compare->add_option("--calibration", cmp.calibration,
                      "A file of `graphbench calibrate`: judge each calibrated row against the run-to-run spread of "
                      "several no-change runs, false alarms over the rows held at the file's alpha (Holm; docs/ci.md). "
                      "Default: gate-calibration.json beside the baseline's results.json, if there is one");
  compare->add_flag("--no-calibration", cmp.no_calibration,
                    "Ignore a gate-calibration.json beside the baseline (judge by the processes and row kinds)");
  compare->add_flag("--fail-on-counts", cmp.fail_on_counts,
                    "A changed count (kernels, copies or launches per step, graphs per step, graph nodes, the graph "
                    "pool's bytes) fails the gate (exit 1); by default it is a CHANGED row of its own");

  CalibrateCliOptions cal;
  CLI::App* calibrate = app.add_subcommand(
      "calibrate", "The gate's calibration from 3 or more no-change runs of a suite (4 or more: also its false-alarm "
                   "and detection rates, leave-one-out)");
  calibrate->add_option("runs", cal.runs, "results.json files of no-change runs of one suite on one device")->required();
  calibrate->add_option("-o,--output", cal.output,
                        "Write the calibration here (JSON); a folder gets FOLDER/gate-calibration.json, which compare "
                        "uses by itself when FOLDER holds the baseline");
  calibrate->add_option("--alpha", cal.alpha, "Chance that a no-change run fails the gate, over all rows (Holm)")
      ->capture_default_str();
  calibrate->add_option("--threshold", cal.threshold, "The gate's smallest slowdown that counts (as compare --threshold)")
      ->capture_default_str();
  calibrate->add_option("--min-samples", cal.min_samples, "The gate's --min-samples")->capture_default_str();
  calibrate->add_option("--slowdown", cal.slowdown, "The slowdown injected into one record at a time in the evaluation")
      ->capture_default_str();
  calibrate->add_flag("--overlap-only", cal.overlap_only,
                      "Print only how often the runs' 95% intervals overlap (2 runs or more: an A/A pair; no calibration "
                      "is made or written)");
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? graphbench::kExitOk : graphbench::kExitBadInput;
  }

  try {
    const std::string command_line = joined_command_line(argc, argv);
    for (const CLI::App* subcommand : {run, list, compare, calibrate, report}) {
      if (subcommand->parsed()) check_no_stray_options(app, *subcommand);
    }
    if (compare->parsed()) {
      graphbench::CompareOptions options;
      options.threshold = parse_threshold(cmp.threshold);
      options.accuracy_tolerance = parse_fraction("--accuracy-tolerance", cmp.accuracy_tolerance, 1.0);
      options.metric = cmp.metric == "speedup" ? graphbench::CompareOptions::Metric::kSpeedup
                                               : graphbench::CompareOptions::Metric::kTime;
      if (cmp.fail_on_missing && cmp.allow_missing) {
        throw graphbench::InputError("--fail-on-missing and --allow-missing contradict each other: give one");
      }
      if (cmp.fail_on_missing) {
        std::cerr << "graphbench: warning: --fail-on-missing is deprecated: a record lost by the current run is a "
                     "regression by default now (--allow-missing relaxes it)\n";
      }
      options.allow_missing = cmp.allow_missing;
      options.min_samples = cmp.min_samples;
      try {
        const auto file = [](const std::string& path) { return path.empty() ? path : graphbench::results_file_of(path); };
        if (cmp.no_calibration && !cmp.calibration.empty()) {
          throw graphbench::InputError("--calibration and --no-calibration contradict each other: give one");
        }
        const std::string baseline = file(cmp.baseline);
        // A calibration travels with its baseline: found beside it unless told otherwise (or an
        // A/A pair sets the noise instead).
        std::string calibration = cmp.calibration;
        if (calibration.empty() && !cmp.no_calibration && cmp.aa_baseline.empty()) {
          calibration = graphbench::calibration_beside(baseline);
        }
        options.fail_on_counts = cmp.fail_on_counts;
        return graphbench::run_compare(baseline, file(cmp.current), options, std::cout, file(cmp.aa_baseline),
                                       calibration, cmp.json_path);
      } catch (const graphbench::InputError&) {
        throw;
      } catch (const std::exception& e) {
        // compare only reads its files: whatever else goes wrong is not a regression (exit 1).
        throw graphbench::InputError(e.what());
      }
    }
    if (calibrate->parsed()) {
      graphbench::CalibrateRequest request;
      request.runs = cal.runs;
      request.output = cal.output;
      request.alpha = parse_fraction("--alpha", cal.alpha, 1.0);
      request.threshold = parse_fraction("--threshold", cal.threshold, 10.0);
      request.slowdown = parse_fraction("--slowdown", cal.slowdown, 10.0);
      request.min_samples = cal.min_samples;
      request.overlap_only = cal.overlap_only;
      return graphbench::run_calibrate(request, std::cout);
    }
    if (list->parsed()) return graphbench::cli::list_command(top.options.configs_dir);
    // What runs workloads needs LibTorch: the front hands it over, the options and the suite checked.
    const bool needs_torch = run->parsed() || !top.options.workload.empty();
    if (torch == nullptr && needs_torch) {
      graphbench::cli::check_suite_up_front(run->parsed() ? finish(sub, argc, argv) : finish(top, argc, argv));
      return hand_to_runner(argv);
    }
    if (report->parsed()) {
      return graphbench::cli::report_command(report_input, report_output, report_formats, report_quiet);
    }
    if (run->parsed()) return torch->run(finish(sub, argc, argv), command_line);
    if (app.count("--suite") > 0 && top.options.workload.empty()) {
      throw graphbench::InputError("--suite: empty name (expected the name of a suite: see graphbench list)");
    }
    if (!top.options.workload.empty()) return torch->run(finish(top, argc, argv), command_line);
    std::cerr << short_usage() << "graphbench: error: nothing to do: give --suite NAME or a subcommand\n";
    return graphbench::kExitBadInput;
  } catch (const graphbench::InputError& e) {
    std::cerr << "graphbench: error: " << e.what() << "\n";
    return graphbench::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "graphbench: error: " << e.what() << "\n";
    return graphbench::kExitFailure;
  }
}
