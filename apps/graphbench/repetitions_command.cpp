// `graphbench ... --repetitions N` (docs/measuring.md, repetitions): the run repeated N times, one
// after the other, each repetition this program again with the same arguments in a process of its
// own (parallel/cases/launcher.h's run_child) writing its results.json into a temporary folder; then the
// repetitions merged (core/record/merge_repetitions.h) and written as one run.
#include "run_support.h"

#include "graphbench/core/base/elapsed.h"
#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/interrupt.h"
#include "graphbench/core/base/remove_tree.h"
#include "graphbench/parallel/cases/launcher.h"
#include "graphbench/core/record/merge_repetitions.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/rescue_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace graphbench::cli {

namespace {

namespace fs = std::filesystem;

// The arguments of repetition `index`: the same, without --repetitions, plus where it writes.
std::vector<std::string> repetition_arguments(const std::vector<std::string>& arguments, const std::string& directory,
                                              int index, int rounds_per_process) {
  std::vector<std::string> out = without_option(arguments, "--repetitions");
  out.insert(out.end(), {"--repetition-dir", directory, "--repetition-index", std::to_string(index)});
  const bool max_samples_given = without_option(arguments, "--max-samples").size() != arguments.size();
  if (rounds_per_process > 0 && !max_samples_given) out.insert(out.end(), {"--max-samples", std::to_string(rounds_per_process)});
  return out;
}

std::string make_temporary_folder() {
  std::string pattern = system_temporary_directory() + "/graphbench-repetitions-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error(fmt::format("--repetitions: cannot create a temporary folder {}: {}", pattern, std::strerror(errno)));
  }
  return pattern;
}

RepetitionResult run_repetition(const RunOptions& o, const std::string& folder, int index, int& interrupted_by) {
  const std::string directory = (fs::path(folder) / std::to_string(index)).string();
  const auto started = std::chrono::steady_clock::now();
  const parallel::ChildOutcome child =
      parallel::run_child("/proc/self/exe", repetition_arguments(o.arguments, directory, index, o.rounds_per_process));
  interrupted_by = child.interrupted_by;
  RepetitionResult result;
  result.index = index;
  result.wall_seconds = seconds_since(started);
  if (!child.succeeded()) result.failure = child.describe();
  const fs::path file = fs::path(directory) / "results.json";
  std::error_code error;
  if (fs::exists(file, error)) {
    try {
      result.report = read_results_file(file.string());
    } catch (const Error& e) {
      result.failure += fmt::format("{}its results could not be read: {}", result.failure.empty() ? "" : "; ", e.what());
    }
  } else if (result.failure.empty()) {
    result.failure = "wrote no results.json";
  }
  return result;
}

bool exited_with(const RepetitionResult& r, int code) { return r.failure == fmt::format("exited with {}", code); }

}  // namespace

int run_repetitions_command(const RunOptions& o, const std::string& command_line) {
  if (const auto rank = parallel::read_rank_env()) {
    throw InputError(fmt::format("--repetitions: this process runs as {} of a data-parallel run (RANK and WORLD_SIZE "
                                 "are set): repetitions start processes of their own; leave --repetitions out",
                                 rank->describe()));
  }
  // Bad input ends the run here, once, before any repetition starts.
  const PreparedRun run = prepare_run(o);
  std::ostream* log = o.quiet ? nullptr : &std::cerr;
  prepare_output(run, log);
  const std::string folder = make_temporary_folder();
  std::vector<RepetitionResult> results;
  int interrupted_by = 0;
  for (int index = 1; index <= o.repetitions && interrupted_by == 0; ++index) {
    if (log != nullptr) {
      *log << fmt::format("graphbench: repetition {} of {} (a process of its own{})\n", index, o.repetitions,
                          o.rounds_per_process > 0
                              ? fmt::format("; by default on a GPU, at most {} rounds per case", o.rounds_per_process)
                              : "");
    }
    results.push_back(run_repetition(o, folder, index, interrupted_by));
    if (!results.back().failure.empty()) {
      std::cerr << fmt::format("graphbench: repetition {} of {} {}\n", index, o.repetitions, results.back().failure);
    }
  }
  remove_tree(folder);
  const bool any_report = std::any_of(results.begin(), results.end(), [](const RepetitionResult& r) { return r.report.has_value(); });
  const bool all_bad_input = std::all_of(results.begin(), results.end(), [](const RepetitionResult& r) { return exited_with(r, kExitBadInput); });
  if (!any_report) {
    std::cerr << fmt::format("graphbench: error: none of the {} repetition(s) run left results; nothing written to {}\n",
                             results.size(), run.directory);
    if (interrupted_by != 0) return kExitInterruptedBase + interrupted_by;
    return all_bad_input ? kExitBadInput : kExitFailure;
  }
  SuiteOutcome outcome;
  outcome.report = merge_repetitions(results, o.repetitions);
  outcome.report.environment.command_line = command_line;
  if (log != nullptr) {
    // Where the variance is (Kalibera and Jones), so that the next run can be dimensioned.
    for (const ResultRecord& r : outcome.report.records) {
      if (!r.repetitions || !r.repetitions->process_sd || !r.repetitions->round_sd) continue;
      *log << fmt::format("graphbench: {}/{}: sd of log(step time) between rounds {:.1f}%, between processes {:.1f}%{}\n",
                          r.case_name, r.variant, *r.repetitions->round_sd * 100.0, *r.repetitions->process_sd * 100.0,
                          r.repetitions->optimal_rounds
                              ? fmt::format(" (Kalibera and Jones: {:.0f} rounds per process would buy the most "
                                            "precision for the time)",
                                            *r.repetitions->optimal_rounds)
                              : "");
    }
  }
  if (interrupted_by != 0) {
    request_stop(interrupted_by);  // report_outcome says so and returns 128 + the signal
    outcome.report.interrupted = true;
    outcome.report.interrupted_by = signal_name(interrupted_by);
  }
  outcome.bad_input = all_bad_input;
  outcome.any_failed = std::any_of(results.begin(), results.end(), [](const RepetitionResult& r) { return !r.failure.empty(); }) ||
                       std::any_of(outcome.report.records.begin(), outcome.report.records.end(),
                                   [](const ResultRecord& r) { return r.status == RecordStatus::kFailed; });
  return report_outcome(o, run, outcome, log);
}

}  // namespace graphbench::cli
