// The GPU's state around one variant's samples, gathered reading by reading (the runner reads
// NVML, engine/runner/case_timing.cpp) and turned into the record's fields, and the names of NVML's
// throttle reasons. Plain arithmetic.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

class ConditionsLog {
 public:
  // Just before the variant's first sample (later calls are ignored).
  void at_start(const GpuReading& reading);
  bool started() const { return started_; }
  // Just after each of its samples: the SM clock and the throttle reasons.
  void after_sample(const GpuReading& reading);
  // Once sampling is over: memory clock, temperature and power at the end.
  void at_end(const GpuReading& reading);

  // Fills sm_clock_start_mhz / sm_clock_end_mhz (the end: after its last sample) and
  // gpu_conditions; leaves them absent when nothing could be read. `reference_mhz`: the SM clock
  // expected under load (the applications clock, else the maximum).
  void fill(ResultRecord& record, std::optional<double> reference_mhz) const;

 private:
  bool started_ = false;
  GpuReading start_;
  GpuReading end_;
  std::optional<double> last_sm_mhz_;
  double sm_sum_ = 0.0;
  int sm_count_ = 0;
  std::optional<std::uint64_t> throttle_seen_;  // OR of the masks read
};

// NVML's clock throttle ("clocks event") reasons, one bit each, decoded without nvml.h so that the
// CPU build decodes and tests them too. The name of every bit set in `mask`, lowest bit first: "idle", "applications clocks setting",
// "SW power cap", "HW slowdown", "sync boost", "SW thermal", "HW thermal", "HW power brake",
// "display clocks", and "unknown (0x...)" for a bit NVML added later. None for 0.
std::vector<std::string> throttle_reason_names(std::uint64_t mask);

// The same without "idle": the reasons that slow a GPU that has work to do. A GPU read between
// two samples is often idle for a moment, which says nothing about the samples.
std::vector<std::string> throttle_reasons_under_load(std::uint64_t mask);

}  // namespace graphbench
