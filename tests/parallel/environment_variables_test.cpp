// Which environment variables a data-parallel result records as its backend's tuning.
#include "graphbench/parallel/communication/environment_variables.h"
#include "support/catch.h"

#include <cstdlib>

using graphbench::parallel::communication_settings;
using graphbench::parallel::current_environment;
using Env = std::map<std::string, std::string>;

TEST_CASE("NCCL's settings are its own variables, c10d's and the stream queues, Gloo's are its own", "[dist]") {
  const Env env = {{"NCCL_MIN_NCHANNELS", "32"},      {"NCCL_NVLS_ENABLE", "0"},
                   {"TORCH_NCCL_AVOID_RECORD_STREAMS", "1"}, {"NVSHMEM_DISABLE_NVLS", "1"},
                   {"TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"}, {"CUDA_DEVICE_MAX_CONNECTIONS", "1"},
                   {"GLOO_SOCKET_IFNAME", "lo"},        {"TORCH_GLOO_LAZY_INIT", "1"},
                   {"PATH", "/usr/bin"},                {"MY_NCCL_MIN", "2"},
                   {"NCCL", "x"},                       {"CUDA_VISIBLE_DEVICES", "0,1"},
                   {"NCCL_VERSION", "2.28.3-1"}};
  CHECK(communication_settings(env, "nccl") == Env{{"CUDA_DEVICE_MAX_CONNECTIONS", "1"},
                                                   {"NCCL_MIN_NCHANNELS", "32"},
                                                   {"NCCL_NVLS_ENABLE", "0"},
                                                   {"NVSHMEM_DISABLE_NVLS", "1"},
                                                   {"TORCH_NCCL_AVOID_RECORD_STREAMS", "1"},
                                                   {"TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"}});
  CHECK(communication_settings(env, "gloo") == Env{{"GLOO_SOCKET_IFNAME", "lo"}, {"TORCH_GLOO_LAZY_INIT", "1"}});
  CHECK(communication_settings(env, "none").empty());
  CHECK(communication_settings({{"PATH", "/bin"}}, "nccl").empty());
}

TEST_CASE("the current environment is this process's, values whole", "[dist]") {
  REQUIRE(setenv("GLOO_GRAPHBENCH_TEST_VALUE", "a=b c", 1) == 0);
  const Env env = current_environment();
  unsetenv("GLOO_GRAPHBENCH_TEST_VALUE");
  REQUIRE(env.count("GLOO_GRAPHBENCH_TEST_VALUE") == 1);
  CHECK(env.at("GLOO_GRAPHBENCH_TEST_VALUE") == "a=b c");
  CHECK(communication_settings(env, "gloo").at("GLOO_GRAPHBENCH_TEST_VALUE") == "a=b c");
}
