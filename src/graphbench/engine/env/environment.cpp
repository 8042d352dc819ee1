#include "graphbench/engine/env/environment.h"

#include "graphbench/core/base/host_name.h"
#include "graphbench/core/base/version.h"
#include "graphbench/engine/env/build_info.h"
#include "graphbench/engine/env/gpu_info.h"
#include "graphbench/engine/env/host_info.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <sys/utsname.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>

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

}  // namespace

std::string source_git_commit() {
  if (const char* env = std::getenv("GRAPHBENCH_GIT_COMMIT"); env != nullptr && *env != '\0') return env;
  const std::string dir = build_info().source_dir;
  if (dir.empty()) return "unknown";
  const std::string commit = command_output(fmt::format("git -C '{}' rev-parse --short=12 HEAD", dir));
  if (commit.empty()) return "unknown";
  const std::string dirty = command_output(fmt::format("git -C '{}' status --porcelain --untracked-files=no", dir));
  return dirty.empty() ? commit : commit + "-dirty";
}

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
