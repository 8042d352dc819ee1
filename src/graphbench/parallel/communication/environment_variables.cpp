#include "graphbench/parallel/communication/environment_variables.h"

#include <unistd.h>  // environ (glibc declares it where _GNU_SOURCE is defined, as g++ does)

#include <string_view>
#include <vector>

namespace graphbench::parallel {

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return env;
}

std::map<std::string, std::string> communication_settings(const std::map<std::string, std::string>& environment,
                                                          const std::string& backend) {
  static const std::vector<std::string_view> kNccl = {"NCCL_", "TORCH_NCCL_", "NVSHMEM_", "TORCH_SYMM_MEM_"};
  static const std::vector<std::string_view> kGloo = {"GLOO_", "TORCH_GLOO_"};
  const bool nccl = backend == "nccl";
  const std::vector<std::string_view> none;
  const std::vector<std::string_view>& prefixes = nccl ? kNccl : backend == "gloo" ? kGloo : none;
  std::map<std::string, std::string> settings;
  for (const auto& [name, value] : environment) {
    // NVIDIA's container images set NCCL_VERSION to the NCCL they installed: a label, not a setting
    // (and not necessarily the NCCL the process loads).
    if (name == "NCCL_VERSION") continue;
    bool tunes = nccl && name == "CUDA_DEVICE_MAX_CONNECTIONS";
    for (std::string_view prefix : prefixes) tunes = tunes || name.rfind(prefix, 0) == 0;
    if (tunes) settings.emplace(name, value);
  }
  return settings;
}

}  // namespace graphbench::parallel
