// What kind of row the gate is judging, and the run-level floor that kind has shown.
// Used by compare.cpp and verdict_rule.cpp; not part of the public API.
//
// Why per kind: over default runs of unchanged code, a step the device is busy with moves by about
// 1% from run to run, while a step that waits for the host moves by up to 1.5x (LibTorch's host
// path changes pace between processes and runs on these VMs). One floor for every row either fails
// unchanged code on the host-bound rows or passes a 29% slowdown of a device-bound one. So each
// row gets the floor of its kind, read from what its own records measured:
//   device-bound  the kernel profile's busy share (device busy / step) >= kDeviceBoundBusyShare and
//                 not host-bound (the host issues steps with time to spare);
//   mixed         busy share >= kMixedBusyShare, or host-bound with more device work than that;
//   host-bound    the device idles most of the step;
//   unknown       no kernel profile (a CPU run, a training run, a file written before profiles):
//                 the floor of the noisiest kind, as before.
// Both records of a row (and, under metric speedup, both eager records) are classified and the
// noisiest kind among them judges: a row whose current run became host-bound is not held to a
// device-bound floor, and a borderline row is judged by its noisier reading.
//
// The floors are the largest run-to-run move of each kind's rows over the default runs measured
// on our GPUs, with a margin (docs/ci.md, "A floor per row kind"): six runs of a78be90 on an H200
// (results/NVIDIA-H200/gate-default), six of d716368 on an H200 (results/NVIDIA-H200/aa-default),
// eight single-process runs on an H100 (results/NVIDIA-H100/ci-calibration). Largest moves of a
// run's median (geometric mean of its processes) between two runs of one set:
//   device-bound  gelu-large, linear-dropout-small/graph, mnist-step/graph: 1.4% (H200), 3.6% (H100,
//                 one process per run: gelu-large/eager)
//   mixed         gelu-small/graph: 12.8% (H200), 7.8% (H100)
//   host-bound    the eager steps of gelu-small, linear-dropout-small, mnist-step: 36.5% (H200),
//                 45.4% (H100); 1.54x between two earlier runs (d716368's README)
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

// The floor of the device-time rows (the kernel profile's busy time per step, compared on its
// own): its largest move between runs of unchanged code was 1.7% (gelu-small/graph, H200), 3.3%
// between two leases of the same kind of GPU (7.62 and 7.87 us).
inline constexpr double kDeviceTimeFloor = 0.06;

double floor_of(RowKind kind);

// One record's kind, with the figures it was read from ("busy 85% of the step, host issues in 61%").
struct RecordKind {
  RowKind kind = RowKind::kUnknown;
  std::string evidence;
};
RecordKind kind_of(const ResultRecord& record);

// The row's kind: the noisiest of its records' kinds (null records are skipped), with its floor and
// a sentence saying why ("device-bound (busy 85% and 86% of the step): floor 6%, ...").
struct RowKindJudgement {
  RowKind kind = RowKind::kUnknown;
  double floor = kUnknownFloor;
  std::string why;
};
RowKindJudgement judge_row_kind(const std::vector<const ResultRecord*>& records);

}  // namespace graphbench::compare_detail
