#include "graphbench/engine/env/environment.h"

#include "graphbench/core/base/host_name.h"
#include "graphbench/core/base/version.h"
#include "graphbench/engine/env/build_info.h"
#include "graphbench/engine/env/gpu_info.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

namespace graphbench {

namespace {

// First line of a shell command's output, or "" (errors silenced).
std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>/dev/null").c_str(), "r"), pclose);
  if (!pipe) return "";
  std::array<char, 256> buffer{};
  std::string out;
  while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) out += buffer.data();
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", tm);
}

// The host CPU as Google Benchmark's context reports it, from /proc and /sys (unreadable: no value):
// the first CPU's current clock, /proc/cpuinfo's "cpu MHz".
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

// env.cpu_*: the count, the first CPU's current clock (/proc/cpuinfo "cpu MHz"), scaling (any
// governor other than "performance"; false without cpufreq); env.load_avg (1, 5, 15 minutes).
void fill_host_cpu_info(Environment& env) {
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0) env.cpu_count = static_cast<int>(online);
  env.cpu_mhz = cpuinfo_mhz();
  env.cpu_scaling_enabled = scaling_enabled(env.cpu_count.value_or(1));
  double load[3] = {};
  const int n = ::getloadavg(load, 3);
  for (int i = 0; i < n; ++i) env.load_avg.push_back(load[i]);
}

// $GRAPHBENCH_GIT_COMMIT, else `git rev-parse` in the source dir ("-dirty" if changed), else "unknown".
std::string source_git_commit() {
  if (const char* env = std::getenv("GRAPHBENCH_GIT_COMMIT"); env != nullptr && *env != '\0') return env;
  const std::string dir = build_info().source_dir;
  if (dir.empty()) return "unknown";
  const std::string commit = command_output(fmt::format("git -C '{}' rev-parse --short=12 HEAD", dir));
  if (commit.empty()) return "unknown";
  const std::string dirty = command_output(fmt::format("git -C '{}' status --porcelain --untracked-files=no", dir));
  return dirty.empty() ? commit : commit + "-dirty";
}

}  // namespace

Environment collect_environment(const EnvironmentRequest& request) {
  Environment env;
  env.schema_version = kResultsSchemaVersion;
  env.tool_version = kToolVersion;
  env.date_utc = utc_now();
  env.host = host_name(/*unknown=*/"");
  utsname uts{};
  if (uname(&uts) == 0) env.os = fmt::format("{} {} {}", uts.sysname, uts.release, uts.machine);
  env.git_commit = source_git_commit();
  env.build_type = build_info().build_type;
  env.compiler = build_info().compiler;
  env.libtorch_version = build_info().libtorch_version;
  env.device = request.cuda ? "cuda" : "cpu";
  env.command_line = request.command_line;
  env.suite = request.suite;
  env.config_path = request.config_path;
  if (request.cuda) {
    fill_gpu_info(env);
    if (request.measure_bandwidth) {
      const double gbps = measure_copy_bandwidth_gbps();
      if (gbps > 0) env.copy_bandwidth_gbps = gbps;
    }
  }
  fill_host_cpu_info(env);
  return env;
}

}  // namespace graphbench
