#include "graphbench/engine/env/host_info.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

namespace graphbench {

namespace {

std::optional<double> cpuinfo_mhz() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    char* end = nullptr;
    const double mhz = std::strtod(line.c_str() + colon + 1, &end);
    if (end != line.c_str() + colon + 1 && mhz > 0) return mhz;
  }
  return std::nullopt;
}

// Google Benchmark's rule: scaling is enabled when a CPU's governor is not "performance"; a host
// without cpufreq (many VMs) cannot scale.
std::optional<bool> scaling_enabled(int cpus) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists("/sys/devices/system/cpu/cpu0/cpufreq", ec)) return false;
  for (int i = 0; i < cpus; ++i) {
    std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(i) + "/cpufreq/scaling_governor");
    std::string governor;
    if (in >> governor && governor != "performance") return true;
  }
  return false;
}

}  // namespace

void fill_host_cpu_info(Environment& env) {
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0) env.cpu_count = static_cast<int>(online);
  env.cpu_mhz = cpuinfo_mhz();
  env.cpu_scaling_enabled = scaling_enabled(env.cpu_count.value_or(1));
  double load[3] = {};
  const int n = ::getloadavg(load, 3);
  for (int i = 0; i < n; ++i) env.load_avg.push_back(load[i]);
}

}  // namespace graphbench
