#include "graphbench/env/gpu_info.h"

#include <fmt/format.h>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvml.h>
#endif

namespace graphbench {

#ifdef GRAPHBENCH_WITH_CUDA

namespace {

// NVML, opened with dlopen: the driver's libnvidia-ml.so.1 may be absent (containers), and then
// only the clock readings are missing.
class Nvml {
 public:
  static Nvml& instance() {
    static Nvml nvml;
    return nvml;
  }
  bool ok() const { return device_ != nullptr; }

  std::optional<double> clock_mhz(nvmlClockType_t type, bool max) const {
    if (!ok()) return std::nullopt;
    unsigned int mhz = 0;
    auto fn = max ? max_clock_ : clock_;
    if (fn == nullptr || fn(device_, type, &mhz) != NVML_SUCCESS) return std::nullopt;
    return static_cast<double>(mhz);
  }

  std::string driver_version() const {
    char buffer[96] = {0};
    if (driver_ == nullptr || driver_(buffer, sizeof(buffer)) != NVML_SUCCESS) return "";
    return buffer;
  }

 private:
  using InitFn = nvmlReturn_t (*)();
  using HandleByBusFn = nvmlReturn_t (*)(const char*, nvmlDevice_t*);
  using ClockFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlClockType_t, unsigned int*);
  using DriverFn = nvmlReturn_t (*)(char*, unsigned int);

  Nvml() {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return;
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<HandleByBusFn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_ = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    max_clock_ = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    driver_ = reinterpret_cast<DriverFn>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    if (init == nullptr || by_bus == nullptr || init() != NVML_SUCCESS) return;
    // CUDA and NVML number devices differently; the PCI bus id names the same one in both.
    char bus_id[32] = {0};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), c10::cuda::current_device()) != cudaSuccess) return;
    nvmlDevice_t device = nullptr;
    if (by_bus(bus_id, &device) == NVML_SUCCESS) device_ = device;
  }

  nvmlDevice_t device_ = nullptr;
  ClockFn clock_ = nullptr;
  ClockFn max_clock_ = nullptr;
  DriverFn driver_ = nullptr;
};

std::string version_string(long version) {
  // CUDA encodes 13.0 as 13000.
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

}  // namespace

std::optional<GpuInfo> current_gpu_info() {
  if (!at::cuda::is_available()) return std::nullopt;
  const cudaDeviceProp* props = at::cuda::getCurrentDeviceProperties();
  GpuInfo info;
  info.name = props->name;
  info.sm_count = props->multiProcessorCount;
  info.memory_gib = static_cast<double>(props->totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) info.cuda_runtime_version = version_string(runtime);
  const long cudnn = at::detail::getCUDAHooks().versionCuDNN();
  if (cudnn > 0) info.cudnn_version = std::to_string(cudnn);
  Nvml& nvml = Nvml::instance();
  info.driver_version = nvml.driver_version();
  if (info.driver_version.empty()) {
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess) info.driver_version = "CUDA driver API " + version_string(driver);
  }
  info.sm_clock_max_mhz = nvml.clock_mhz(NVML_CLOCK_SM, /*max=*/true).value_or(0.0);
  return info;
}

std::optional<double> current_sm_clock_mhz() {
  if (!at::cuda::is_available()) return std::nullopt;
  return Nvml::instance().clock_mhz(NVML_CLOCK_SM, /*max=*/false);
}

double measure_copy_bandwidth_gbps(std::size_t bytes) {
  if (!at::cuda::is_available()) return 0.0;
  const auto n = static_cast<std::int64_t>(bytes / sizeof(float));
  at::Tensor src = at::ones({n}, at::TensorOptions().device(at::kCUDA).dtype(at::kFloat));
  at::Tensor dst = at::empty_like(src);
  for (int i = 0; i < 3; ++i) dst.copy_(src);  // warm-up
  at::cuda::CUDAEvent start(cudaEventDefault);
  at::cuda::CUDAEvent stop(cudaEventDefault);
  constexpr int kCopies = 20;
  c10::cuda::device_synchronize();
  start.record(at::cuda::getCurrentCUDAStream());
  for (int i = 0; i < kCopies; ++i) dst.copy_(src);
  stop.record(at::cuda::getCurrentCUDAStream());
  stop.synchronize();
  const double seconds = start.elapsed_time(stop) / 1000.0;
  return 2.0 * static_cast<double>(n * static_cast<std::int64_t>(sizeof(float))) * kCopies / seconds / 1e9;
}

#else  // CPU build

std::optional<GpuInfo> current_gpu_info() { return std::nullopt; }
std::optional<double> current_sm_clock_mhz() { return std::nullopt; }
double measure_copy_bandwidth_gbps(std::size_t) { return 0.0; }

#endif

}  // namespace graphbench
