// A record's step time in units of its host's pace (timing/host_pace.h): the median over its
// samples of sample_us / host_pace_us of the same sample. A host-bound step and the launch probe
// slow down together when the host does, so their ratio holds where the time moves by 15% to 40%
// between processes (docs/measuring.md, "The host's pace"). The calibrated gate compares the
// records it paces so (compare/calibration.h); a ratio of two paced medians is a ratio of times at
// the same host pace.
#pragma once

#include "graphbench/record/result_record.h"

#include <string>
#include <vector>

namespace graphbench {

// True when the record holds one positive pace per sample.
bool has_host_pace(const ResultRecord& record);

// The median of samples[i] / paces[i]; NaN when the two differ in length, are empty, or a pace is
// not positive.
double paced_median(const std::vector<double>& samples, const std::vector<double>& paces);

}  // namespace graphbench
