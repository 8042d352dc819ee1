// On the GPU: NVML's readings that the runner takes around each variant's samples (clocks,
// temperature, power, throttle reasons) and the energy block on a real counter. Skipped without
// a GPU, and without NVML or an energy counter, with the reason.
#include "engine/engine_test_util.h"
#include "support/cuda_skip.h"

#include "graphbench/core/clocks/energy.h"
#include "graphbench/core/clocks/conditions_log.h"
#include "graphbench/engine/env/gpu_info.h"
#include "graphbench/core/sampling/energy_block.h"
#include "graphbench/engine/timing/step_timer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

using namespace graphbench;
using namespace graphbench::test_util;

TEST_CASE("NVML on the GPU: clocks, temperature, power and throttle reasons read", "[cuda][clocks]") {
  GRAPHBENCH_REQUIRE_CUDA();
  const GpuReading r = read_gpu_state(/*full=*/true);
  if (!r.sm_clock_mhz) GRAPHBENCH_SKIP("NVML (libnvidia-ml.so.1) cannot be loaded here");
  CHECK(*r.sm_clock_mhz > 0);
  CHECK(r.memory_clock_mhz.value_or(0.0) > 0);
  CHECK(r.temperature_c.has_value());
  CHECK(r.power_w.value_or(0.0) > 0);
  REQUIRE(r.throttle_mask.has_value());
  const auto reference = sm_clock_reference_mhz();
  CHECK(reference.value_or(0.0) > 0);
  WARN(fmt::format("SM {} MHz (reference {} MHz), memory {} MHz, {} C, {} W, throttle reasons: {}", *r.sm_clock_mhz,
                   reference.value_or(0.0), r.memory_clock_mhz.value_or(0.0), r.temperature_c.value_or(0.0),
                   r.power_w.value_or(0.0), fmt::join(throttle_reason_names(*r.throttle_mask), ", ")));
  // The cheap reading after each sample has the SM clock and the reasons only.
  const GpuReading cheap = read_gpu_state(/*full=*/false);
  CHECK(cheap.sm_clock_mhz.has_value());
  CHECK(cheap.throttle_mask.has_value());
  CHECK_FALSE(cheap.power_w.has_value());
}

TEST_CASE("NVML on the GPU: the energy block resolves a busy step's energy", "[cuda][clocks]") {
  GRAPHBENCH_REQUIRE_CUDA();
  if (!read_energy_counter_mj()) GRAPHBENCH_SKIP("no NVML energy counter here (NVML missing, or a GPU before Volta)");
#ifdef GRAPHBENCH_WITH_CUDA
  at::Tensor x = cuda_randn({1 << 24}, 11);
  StepTimer timer(/*cuda=*/true);
  TimedVariant v;
  v.name = "busy";
  v.steps_per_sample = 8;
  v.step = [&x] { x.mul_(1.0000001f).add_(1e-7f); };
  const EnergyReadings readings = run_energy_block(v, timer, read_energy_counter_mj, kEnergyBlockMaxSeconds);
  const EnergyPerStep e = energy_per_step(readings);
  INFO(e.unavailable);
  REQUIRE(e.joules_per_step.has_value());
  CHECK(*e.joules_per_step > 0);
  CHECK(readings.updates == kEnergyUpdatesNeeded);
  WARN(fmt::format("energy per step {:.4g} mJ over {} steps in {:.3f} s ({:.0f} W), counter updated every {:.1f} ms",
                   1000.0 * *e.joules_per_step, e.steps, e.seconds, *e.joules / e.seconds,
                   e.update_interval_ms.value_or(0.0)));
#endif
}
