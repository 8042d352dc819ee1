#include "graphbench/engine/runner/case_timing.h"

#include "graphbench/engine/env/gpu_info.h"
#include "graphbench/core/base/interrupt.h"
#include "graphbench/core/report/progress.h"
#include "graphbench/core/sampling/energy_block.h"
#include "graphbench/engine/timing/step_timer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>

namespace graphbench {

namespace {

// Reads the GPU before each variant's first sample and after each (off the clock).
void watch_gpu(TimedCase& out) {
  out.conditions.resize(out.timed.size());  // not resized again: the hooks keep pointers into it
  for (std::size_t i = 0; i < out.timed.size(); ++i) {
    ConditionsLog* log = &out.conditions[i];
    out.timed[i].before_sample = [log] {
      if (!log->started()) log->at_start(read_gpu_state(/*full=*/true));
    };
    out.timed[i].after_sample = [log] { log->after_sample(read_gpu_state(/*full=*/false)); };
  }
}

// Each variant's energy block (core/sampling/energy_block.h), after all the samples.
void measure_energy(TimedCase& out, SampleTimer& timer, const CaseContext& context, bool data_parallel,
                    ProgressLine& progress, const std::string& case_name, double block_max_s) {
  out.energy.resize(out.timed.size());
  for (std::size_t i = 0; i < out.timed.size(); ++i) {
    TimedVariant& v = out.timed[i];
    EnergyReadings& readings = out.energy[i];
    progress.update(fmt::format("{}: energy per step of {} ({} of {}, at most {:.2g} s each)", case_name, v.name, i + 1,
                                out.timed.size(), block_max_s),
                    /*force=*/true);
    readings.counter_available = true;
    if (!v.error.empty()) {
      readings.not_run = "the variant failed while timing";
    } else if (data_parallel) {
      // The ranks would have to run the block's steps together; not done.
      readings.not_run = "not measured in data-parallel runs";
    } else if (context.cold_l2) {
      readings.not_run = "not measured with --l2 cold (the flushes before every step would count)";
    } else {
      try {
        readings = run_energy_block(v, timer, read_energy_counter_mj, block_max_s);
      } catch (const std::exception& e) {
        readings.not_run = std::string("a step failed in the energy block: ") + e.what();
      }
    }
    if (stop_requested()) return;
  }
}

}  // namespace

double slowest_rank_s(const SamplingAgreement* agreement, double own_s) {
  if (agreement == nullptr || !agreement->max_over_ranks) return own_s;
  return static_cast<double>(agreement->max_over_ranks({static_cast<std::int64_t>(own_s * 1e6)}).at(0)) * 1e-6;
}

const DevicePeaks& cpu_peaks() {
  static const DevicePeaks peaks = [] {
    const auto best_of_three = [](const std::function<void()>& work) {
      double best = 0.0;
      for (int i = 0; i < 3; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        best = i == 0 ? seconds_since(start) : std::min(best, seconds_since(start));
      }
      return best;
    };
    DevicePeaks p;
    constexpr std::int64_t n = 512;
    const at::Tensor a = at::randn({n, n});
    const at::Tensor b = at::randn({n, n});
    at::mm(a, b);  // its first call pays one-time costs
    const double mm_s = best_of_three([&] { at::mm(a, b); });
    if (mm_s > 0) p.flops_per_s = 2.0 * n * n * n / mm_s;
    constexpr std::int64_t floats = 8 << 20;  // 32 MiB
    const at::Tensor from = at::zeros({floats});
    at::Tensor to = at::empty({floats});
    const double copy_s = best_of_three([&] { to.copy_(from); });
    if (copy_s > 0) p.bytes_per_s = 2.0 * 4.0 * floats / copy_s;
    return p;
  }();
  return peaks;
}

double probe_eager_step_s(CaseInstance& instance, const std::vector<VariantRecord>& runnable, double limit_s,
                          bool cuda, const SamplingAgreement* agreement) {
  const VariantRecord* eager = &runnable.front();
  for (const auto& v : runnable) {
    if (v.variant.is_eager_baseline()) eager = &v;
  }
  const auto runner = instance.make_runner(eager->variant, /*validation=*/false);
  auto timed_step = [&] {
    synchronize_device(cuda);
    const auto start = std::chrono::steady_clock::now();
    runner->step();
    synchronize_device(cuda);  // on a GPU the step is asynchronous: its time is the device's too
    return slowest_rank_s(agreement, seconds_since(start));
  };
  const double first_s = timed_step();
  return first_s < limit_s ? std::min(first_s, timed_step()) : first_s;
}

std::optional<double> phase_time_left_s(const CaseSpec& spec, const CaseContext& context,
                                        std::chrono::steady_clock::time_point started) {
  if (!context.time_limit_cuts_validation) return std::nullopt;
  return std::max(spec.sampling.max_time_s - seconds_since(started), 0.0);
}

TimedCase time_variants(CaseInstance& instance, const std::vector<VariantRecord>& variants, const CaseSpec& spec,
                        const CaseContext& context, const SamplingAgreement* agreement, std::optional<double> time_left_s) {
  const auto started = std::chrono::steady_clock::now();
  TimedCase out;
  for (const auto& v : variants) {
    if (v.record->status != RecordStatus::kOk) continue;
    try {
      auto runner = instance.make_runner(v.variant, /*validation=*/false);
      int repeat = 1;
      if (v.variant.name() == context.slowdown_variant && context.slowdown_factor > 1) {
        // Test-only: every step runs `factor` times, to check that compare catches a slowdown.
        repeat = context.slowdown_factor;
        v.record->warnings.push_back(fmt::format("test-only slowdown injected: every step runs {} times", repeat));
      }
      VariantRunner* raw = runner.get();
      TimedVariant t;
      t.name = v.variant.name();
      t.step = [raw, repeat] {
        for (int i = 0; i < repeat; ++i) raw->step();
      };
      out.runners.push_back(std::move(runner));
      out.timed.push_back(std::move(t));
      out.variants.push_back(v);
    } catch (const std::exception& e) {
      mark_failed(*v.record, e.what());
    }
  }
  if (out.timed.empty()) return out;
  if (context.device.is_cuda()) watch_gpu(out);
  const L2Cache l2 = context.cold_l2 ? L2Cache::kCold : L2Cache::kHot;
  if (context.device.is_cuda()) out.l2 = l2;
  StepTimer timer(context.device.is_cuda(), l2);
  ProgressLine progress(context.progress);
  SamplingObserver observer;
  if (progress.active()) {
    observer = [&](const std::vector<TimedVariant>& variants, const SamplingProgress& p) {
      if (progress.due()) progress.update(sampling_progress_text(spec.name, variants, p));
    };
  }
  out.min_samples = spec.sampling.min_samples;
  SamplingSpec sampling = spec.sampling;
  const bool energy = context.energy && context.device.is_cuda();
  double energy_block_s = kEnergyBlockMaxSeconds;
  if (time_left_s) {
    sampling.max_time_s = std::max(*time_left_s - seconds_since(started), 0.0);
    if (energy && agreement == nullptr) {
      // The energy blocks come after sampling, inside the same limit: their share is kept first.
      const double v = static_cast<double>(out.timed.size());
      const double share = std::min(kEnergyShare * sampling.max_time_s, v * kEnergyBlockMaxSeconds);
      sampling.max_time_s -= share;
      energy_block_s = share / v;
    }
  }
  out.stop_reason = sample_interleaved(out.timed, sampling, timer, observer, agreement);
  if (!out.conditions.empty()) {
    const GpuReading end = read_gpu_state(/*full=*/true);
    for (ConditionsLog& log : out.conditions) log.at_end(end);
    out.sm_clock_reference_mhz = sm_clock_reference_mhz();
  }
  if (energy && !stop_requested()) {
    measure_energy(out, timer, context, agreement != nullptr, progress, spec.name, energy_block_s);
    progress.clear();
  }
  return out;
}

}  // namespace graphbench
