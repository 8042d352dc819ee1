// What kind of row the gate is judging, and the run-level floor that kind has shown (internal to
// compare/). A device-bound step moves about 1% from run to run, a host-bound one up to 1.5x, so
// each row gets the floor of its kind, read from its own records' kernel profile; the noisiest
// kind among a row's records judges. The kinds and the moves measured: docs/ci.md ("A floor per
// row kind").
#pragma once

#include "graphbench/core/record/result_record.h"

#include <string>
#include <vector>

namespace graphbench::compare_detail {

enum class RowKind { kDeviceBound, kMixed, kHostBound, kUnknown };
const char* to_string(RowKind kind);  // "device-bound", "mixed", "host-bound", "unknown"

inline constexpr double kDeviceBoundBusyShare = 0.80;  // device-bound rows read 0.83-0.92, mixed 0.61-0.74
inline constexpr double kMixedBusyShare = 0.40;        // host-bound rows read 0.07-0.18

// The floors: the slowdown below which a row of the kind is never SLOWER without a calibration.
inline constexpr double kDeviceBoundFloor = 0.06;  // 1.7x the largest move (3.6%)
inline constexpr double kMixedFloor = 0.25;        // 2x the largest move (12.8%)
inline constexpr double kHostBoundFloor = 0.75;    // the largest move measured was 54%
inline constexpr double kUnknownFloor = kHostBoundFloor;

// The device-time rows' floor: their largest move between runs of unchanged code was 1.7%, 3.3%
// between two leases of an H200.
inline constexpr double kDeviceTimeFloor = 0.06;

// The row's kind: the noisiest of its records' kinds (null records are skipped), with its floor and
// a sentence saying why ("device-bound (busy 85% and 86% of the step): floor 6%, ...").
struct RowKindJudgement {
  RowKind kind = RowKind::kUnknown;
  double floor = kUnknownFloor;
  std::string why;
};
RowKindJudgement judge_row_kind(const std::vector<const ResultRecord*>& records);

}  // namespace graphbench::compare_detail
