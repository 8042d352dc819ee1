// The host CPU as Google Benchmark's context reports it, from /proc and /sys (unreadable: no value).
#pragma once

#include "graphbench/core/record/environment_block.h"

namespace graphbench {

// env.cpu_*: the count, the first CPU's current clock (/proc/cpuinfo "cpu MHz"), scaling (any
// governor other than "performance"; false without cpufreq); env.load_avg (1, 5, 15 minutes).
void fill_host_cpu_info(Environment& env);

}  // namespace graphbench
