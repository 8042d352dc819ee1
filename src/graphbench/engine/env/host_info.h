// The host CPU as Google Benchmark's context reports it: the number of CPUs, their clock, whether
// a frequency governor may scale it, the load average. Read from Linux's /proc and /sys; what
// cannot be read has no value.
#pragma once

#include <optional>
#include <vector>

namespace graphbench {

struct HostCpuInfo {
  std::optional<int> count;
  std::optional<double> mhz;               // the first CPU's current clock (/proc/cpuinfo "cpu MHz")
  std::optional<bool> scaling_enabled;     // any governor other than "performance"; false without cpufreq
  std::vector<double> load_avg;            // 1, 5, 15 minutes
};

HostCpuInfo host_cpu_info();

}  // namespace graphbench
