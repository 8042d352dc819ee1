// The host CPU as Google Benchmark's context reports it, from /proc and /sys (unreadable: no value).
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
