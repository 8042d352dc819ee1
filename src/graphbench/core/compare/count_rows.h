// The gate's rows of what does not move unless the code does (compare.h, measures "device time"
// and "counts"). Used by compare.cpp; not part of the public API.
//
// Wall time of a host-bound step moves with the VM; what the device was asked to do does not.
// For each pair of ok records that both carry the figures:
//   device time  the kernel profile's busy time of the device per step (KernelProfile::
//                busy_us_per_step): SLOWER past kDeviceTimeFloor (core/compare/row_kind.h), whatever
//                the row's wall time did, so more device work is seen in a host-bound row too;
//   counts       kernels, copies and launches per step, graphs per step, the graphs' nodes and
//                kernel nodes, the graph pools' reserved bytes, compared exactly: CHANGED names
//                each count that moved (a regression under --fail-on-counts), else SAME.
#pragma once

#include "graphbench/core/compare/compare.h"
#include "graphbench/core/record/result_record.h"

#include <optional>

namespace graphbench::compare_detail {

// Nothing when either record lacks a kernel profile with a positive device time.
std::optional<Comparison> device_time_row(const ResultRecord& base, const ResultRecord& cur,
                                          const CompareOptions& options);

// Nothing when the records have no count in common.
std::optional<Comparison> counts_row(const ResultRecord& base, const ResultRecord& cur);

}  // namespace graphbench::compare_detail
