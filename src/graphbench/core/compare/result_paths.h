// What `graphbench compare` accepts as a run: a results.json file, or the folder a run wrote
// (`-o DIR`, default graphbench-out/<suite>), whose results.json it reads.
#pragma once

#include <string>

namespace graphbench {

// `path` itself when it is not a folder; DIR/results.json for a folder DIR. InputError naming the
// folder when it holds no results.json.
std::string results_file_of(const std::string& path);

// The name a calibration has beside the baseline it calibrates (`graphbench calibrate -o DIR`),
// where `graphbench compare` finds it without --calibration.
inline constexpr const char* kCalibrationFileName = "gate-calibration.json";

// DIR/gate-calibration.json for the results file DIR/results.json when that file exists, else "".
std::string calibration_beside(const std::string& results_file);

// `path` itself, or PATH/gate-calibration.json when `path` is an existing folder: where
// `graphbench calibrate -o PATH` writes.
std::string calibration_output_of(const std::string& path);

}  // namespace graphbench
