// The environment variables that tune the backend, which a data-parallel result records.
#pragma once

#include <map>
#include <string>

namespace graphbench::parallel {

// Every NAME=value of this process's environment.
std::map<std::string, std::string> current_environment();

// The entries that change how `backend` communicates. "nccl": NCCL_, TORCH_NCCL_, NVSHMEM_,
// TORCH_SYMM_MEM_ and CUDA_DEVICE_MAX_CONNECTIONS, not NCCL_VERSION (an image's label); "gloo":
// GLOO_ and TORCH_GLOO_.
std::map<std::string, std::string> communication_settings(const std::map<std::string, std::string>& environment,
                                                          const std::string& backend);

}  // namespace graphbench::parallel
