// `graphbench calibrate RUN1 RUN2 RUN3 ... [-o FILE]`: prints the gate's calibration (calibration.h),
// the runs' interval overlap and, with 4 runs or more, the leave-one-out evaluation; with an output
// path, writes them as one JSON file (whole or not at all) for `compare --calibration`. docs/ci.md.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace graphbench {

struct CalibrateRequest {
  std::vector<std::string> runs;  // results.json files of the same code
  std::string output;             // "" : print only
  double alpha = 0.05;            // family-wise false-alarm rate over a suite's rows
  double threshold = 0.05;        // the gate's smallest slowdown that counts (compare --threshold)
  int min_samples = 5;            // the gate's --min-samples
  double slowdown = 0.10;         // injected in the evaluation
  bool overlap_only = false;      // --overlap-only: 2 runs or more, only their interval overlap
};

// Reads the runs (InputError: exit 2), prints, writes; returns kExitOk. With overlap_only, prints
// only the interval overlap (of two runs or more, of one suite; no output file).
int run_calibrate(const CalibrateRequest& request, std::ostream& out);

}  // namespace graphbench
