// The run options checked without LibTorch: the front (cli.h) refuses a bad value in milliseconds,
// before it starts graphbench-run, which would spend half a second or more loading LibTorch only to
// refuse it. What needs the suite or the workloads is checked by run_command.cpp.
#pragma once

#include "options.h"

#include <string>
#include <utility>
#include <vector>

namespace graphbench::cli {

// InputError naming the option and what it expects, for the first bad value of `o`.
void check_run_options(const RunOptions& o);

// The case names of --cases values: each value split at commas, except a comma written "\,";
// "\\" is a backslash. InputError for an empty name.
std::vector<std::string> case_names_of(const std::vector<std::string>& values);

// The names of --variants, each a known variant; InputError for none or an unknown one.
std::vector<std::string> variant_names_of(const std::string& list);

// --config - where each of several processes reads the suite (standard input reaches only one):
// InputError saying that `starter` ("a data-parallel run") starts a process per `process` ("rank").
void refuse_suite_from_stdin(const RunOptions& o, const std::string& starter, const std::string& process);

// --inject-slowdown VARIANT=K: the variant and K (an integer, at least 2).
std::pair<std::string, int> slowdown_of(const std::string& text);

}  // namespace graphbench::cli
