// The suite a run's options select, read and checked without LibTorch: the suite file (--config, or
// --suite NAME's NAME.json in the configs folders), its cases after --cases, --filter, --sweep,
// --use-train-graph and --variants, and the output formats. The front checks a run with it before it
// starts graphbench-run (so that a bad suite is refused in milliseconds), and graphbench-run prepares
// its run with it.
#pragma once

#include "options.h"

#include "graphbench/core/report/report_files.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <ostream>
#include <string>
#include <vector>

namespace graphbench::cli {

struct SelectedSuite {
  std::string path;  // the suite file (kSuiteFromStdin: standard input)
  SuiteSpec suite;   // loaded, filtered, swept
  OutputFormats formats;
};

// InputError for a missing or bad suite file, an option that names no case or variant of it, or a
// sweep it cannot take. `notes` (null: none) is told of a case left out for want of a variant asked for.
SelectedSuite select_suite(const RunOptions& options, const std::vector<WorkloadDescriptor>& workloads,
                           std::ostream* notes);

// The front's check before it hands a run to graphbench-run: select_suite against the workload
// catalog, for every run but one whose suite comes on standard input (which graphbench-run reads).
void check_suite_up_front(const RunOptions& options);

}  // namespace graphbench::cli
