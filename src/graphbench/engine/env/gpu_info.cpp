#include "graphbench/engine/env/gpu_info.h"

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

// NVML through dlopen: without the driver's libnvidia-ml.so.1 (containers) only its readings are missing.
class Nvml {
 public:
  static Nvml& instance() {
    static Nvml nvml;
    return nvml;
  }
  bool ok() const { return device_ != nullptr; }

  std::optional<double> clock_mhz(nvmlClockType_t type, bool max) const {
    return query<unsigned int>(max ? max_clock_ : clock_, type);
  }
  std::optional<double> applications_clock_mhz(nvmlClockType_t type) const {
    return query<unsigned int>(applications_clock_, type);
  }
  std::optional<double> temperature_c() const { return query<unsigned int>(temperature_, NVML_TEMPERATURE_GPU); }
  std::optional<double> power_w() const {
    const auto milliwatts = query<unsigned int>(power_);
    return milliwatts ? std::optional<double>(*milliwatts / 1000.0) : std::nullopt;
  }
  std::optional<std::uint64_t> throttle_mask() const { return query<unsigned long long>(throttle_); }
  std::optional<std::uint64_t> energy_mj() const { return query<unsigned long long>(energy_); }

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
  using TemperatureFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int*);
  using UintFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);
  using UlonglongFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);

  // `fn(device, args..., &value)` where NVML has the function and it succeeds.
  template <typename T, typename Fn, typename... Args>
  std::optional<T> query(Fn fn, Args... args) const {
    T value{};
    if (!ok() || fn == nullptr || fn(device_, args..., &value) != NVML_SUCCESS) return std::nullopt;
    return value;
  }

  Nvml() {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return;
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<HandleByBusFn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_ = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    max_clock_ = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    driver_ = reinterpret_cast<DriverFn>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    applications_clock_ = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetApplicationsClock"));
    temperature_ = reinterpret_cast<TemperatureFn>(dlsym(lib, "nvmlDeviceGetTemperature"));
    power_ = reinterpret_cast<UintFn>(dlsym(lib, "nvmlDeviceGetPowerUsage"));
    // Renamed "clocks event reasons" in driver 535; older drivers have only the throttle name.
    throttle_ = reinterpret_cast<UlonglongFn>(dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (throttle_ == nullptr) {
      throttle_ = reinterpret_cast<UlonglongFn>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    }
    energy_ = reinterpret_cast<UlonglongFn>(dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
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
  ClockFn applications_clock_ = nullptr;
  TemperatureFn temperature_ = nullptr;
  UintFn power_ = nullptr;
  UlonglongFn throttle_ = nullptr;
  UlonglongFn energy_ = nullptr;
};

std::string version_string(long version) {
  // CUDA encodes 13.0 as 13000.
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

}  // namespace

void fill_gpu_info(Environment& env) {
  if (!at::cuda::is_available()) return;
  const cudaDeviceProp* props = at::cuda::getCurrentDeviceProperties();
  env.gpu_name = props->name;
  if (props->multiProcessorCount > 0) env.sm_count = props->multiProcessorCount;
  const double memory_gib = static_cast<double>(props->totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  if (memory_gib > 0) env.gpu_memory_gib = memory_gib;
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) env.cuda_runtime_version = version_string(runtime);
  const long cudnn = at::detail::getCUDAHooks().versionCuDNN();
  if (cudnn > 0) env.cudnn_version = std::to_string(cudnn);
  Nvml& nvml = Nvml::instance();
  env.driver_version = nvml.driver_version();
  if (env.driver_version.empty()) {
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess) env.driver_version = "CUDA driver API " + version_string(driver);
  }
  const double sm_clock_max_mhz = nvml.clock_mhz(NVML_CLOCK_SM, /*max=*/true).value_or(0.0);
  if (sm_clock_max_mhz > 0) env.sm_clock_max_mhz = sm_clock_max_mhz;
}

GpuReading read_gpu_state(bool full) {
  GpuReading r;
  if (!at::cuda::is_available()) return r;
  const Nvml& nvml = Nvml::instance();
  r.sm_clock_mhz = nvml.clock_mhz(NVML_CLOCK_SM, /*max=*/false);
  r.throttle_mask = nvml.throttle_mask();
  if (full) {
    r.memory_clock_mhz = nvml.clock_mhz(NVML_CLOCK_MEM, /*max=*/false);
    r.temperature_c = nvml.temperature_c();
    r.power_w = nvml.power_w();
  }
  return r;
}

std::optional<double> sm_clock_reference_mhz() {
  if (!at::cuda::is_available()) return std::nullopt;
  const Nvml& nvml = Nvml::instance();
  if (auto applications = nvml.applications_clock_mhz(NVML_CLOCK_SM)) return applications;
  return nvml.clock_mhz(NVML_CLOCK_SM, /*max=*/true);
}

std::optional<std::uint64_t> read_energy_counter_mj() {
  if (!at::cuda::is_available()) return std::nullopt;
  return Nvml::instance().energy_mj();
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

void fill_gpu_info(Environment&) {}
GpuReading read_gpu_state(bool) { return {}; }
std::optional<double> sm_clock_reference_mhz() { return std::nullopt; }
std::optional<std::uint64_t> read_energy_counter_mj() { return std::nullopt; }
double measure_copy_bandwidth_gbps(std::size_t) { return 0.0; }

#endif

}  // namespace graphbench
