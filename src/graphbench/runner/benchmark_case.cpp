#include "graphbench/runner/benchmark_case.h"

#include "graphbench/core/errors.h"
#include "graphbench/env/gpu_info.h"
#include "graphbench/exec/executor.h"
#include "graphbench/runner/validation.h"
#include "graphbench/stats/statistics.h"
#include "graphbench/timing/sampler.h"

#include <fmt/format.h>

#include <map>

namespace graphbench {

namespace {

// Test-only slowdown: every step of the wrapped variant runs `factor` times.
class RepeatedStepRunner final : public VariantRunner {
 public:
  RepeatedStepRunner(std::unique_ptr<VariantRunner> inner, int factor) : inner_(std::move(inner)), factor_(factor) {}
  void step() override {
    for (int i = 0; i < factor_; ++i) inner_->step();
  }
  std::vector<at::Tensor> observe() override { return inner_->observe(); }
  std::map<std::string, std::int64_t> counters() const override { return inner_->counters(); }
  std::optional<double> capture_ms() const override { return inner_->capture_ms(); }
  std::vector<std::string> capture_failures() const override { return inner_->capture_failures(); }

 private:
  std::unique_ptr<VariantRunner> inner_;
  int factor_;
};

void fail(ResultRecord& record, const std::string& reason) {
  record.status = RecordStatus::kFailed;
  record.reason = reason;
}

// A variant whose capture failed ran eagerly instead: its record stays ok (the run goes on) and
// says so in `reason` ("ran eagerly, capture failed: <why>"), once per distinct cause.
void note_capture_failures(ResultRecord& record, const VariantRunner& runner) {
  for (const auto& why : runner.capture_failures()) {
    const std::string text = "ran eagerly, capture failed: " + why;
    if (record.reason.find(text) != std::string::npos) continue;
    record.reason += (record.reason.empty() ? "" : "; ") + text;
  }
}

// Why a variant cannot run here, or "".
std::string skip_reason(const std::string& variant, const CaseContext& context) {
  if (!variant_needs_cuda_graph(variant)) return "";
  if (!context.device.is_cuda()) return "CUDA graphs need a CUDA device; this run is on the CPU";
  if (!cuda_graphs_available()) return "this graphbench was built against a LibTorch without CUDA";
  return "";
}

void fill_timing(ResultRecord& record, const TimedVariant& timed, const std::string& stop_reason) {
  record.steps_per_sample = timed.steps_per_sample;
  record.samples_us = timed.device_us;
  record.host_samples_us = timed.host_us;
  record.stats = stats::summarize(timed.device_us);
  record.host_stats = stats::summarize(timed.host_us);
  record.rel_noise = stats::median_relative_noise(timed.device_us);
  record.stop_reason = stop_reason;
  const double rel_iqr = record.stats->iqr / record.stats->median;
  if (rel_iqr > 0.10) {
    record.warnings.push_back(fmt::format("IQR is {:.0f}% of the median (over 10%): noisy measurement", rel_iqr * 100));
  }
  if (stop_reason.find("timeout") != std::string::npos || stop_reason.find("max samples") != std::string::npos) {
    record.warnings.push_back("sampling stopped early: " + stop_reason);
  }
}

void fill_roofline(ResultRecord& record, const StepCost& cost, const Environment& environment) {
  if (!record.stats || (cost.bytes <= 0 && cost.flops <= 0)) return;
  Roofline r;
  r.bytes = cost.bytes;
  r.flops = cost.flops;
  const double seconds = record.stats->median * 1e-6;
  r.achieved_gbps = cost.bytes / seconds / 1e9;
  r.achieved_tflops = cost.flops / seconds / 1e12;
  if (environment.copy_bandwidth_gbps > 0) r.bandwidth_share = r.achieved_gbps / environment.copy_bandwidth_gbps;
  record.roofline = r;
}

}  // namespace

ResultRecord make_record(const CaseSpec& spec, const std::string& variant, const CaseContext& context) {
  ResultRecord record;
  record.case_name = spec.name;
  record.workload = spec.workload;
  record.variant = variant;
  record.kind = spec.kind;
  record.mode = spec.mode;
  record.dtype = spec.dtype;
  record.device = context.device.is_cuda() ? "cuda" : "cpu";
  record.params = spec.params;
  for (const auto& published : spec.published) {
    if (published.variant != variant) continue;
    record.published = PublishedComparison{published.speedup, published.eager_us, published.variant_us,
                                           published.source, published.device};
  }
  return record;
}

std::vector<ResultRecord> run_benchmark_case(const Workload& workload, const CaseSpec& spec,
                                             const CaseContext& context, const Environment& environment,
                                             std::ostream* log) {
  std::vector<ResultRecord> records;
  for (const auto& variant : spec.variants) records.push_back(make_record(spec, variant, context));
  auto say = [&](const std::string& line) {
    if (log != nullptr) *log << "  " << spec.name << ": " << line << std::endl;
  };

  std::unique_ptr<CaseInstance> instance;
  try {
    at::manual_seed(context.seed);
    instance = workload.instantiate(spec, context);
  } catch (const InputError&) {
    throw;  // bad data or parameters: the suite runner records it and exits with 2 at the end
  } catch (const std::exception& e) {
    for (auto& r : records) fail(r, std::string("setting up the case failed: ") + e.what());
    return records;
  }

  std::vector<ResultRecord*> to_run;
  for (auto& r : records) {
    std::string why = skip_reason(r.variant, context);
    if (why.empty()) why = instance->skip_reason(r.variant);
    if (!why.empty()) {
      r.status = RecordStatus::kSkipped;
      r.reason = why;
    } else {
      to_run.push_back(&r);
    }
  }

  if (to_run.empty()) return records;

  // Correctness first: eager's observations, then every other variant's against them.
  say("validating against eager");
  const int steps = instance->validation_steps();
  Observations eager;
  try {
    eager = observe_steps(*instance->make_runner("eager", /*validation=*/true), steps);
  } catch (const std::exception& e) {
    for (auto* r : to_run) fail(*r, std::string("eager (the reference for validation) failed: ") + e.what());
    return records;
  }
  for (auto* r : to_run) {
    if (r->variant == "eager") continue;
    try {
      auto runner = instance->make_runner(r->variant, /*validation=*/true);
      auto result = compare_observations(eager, observe_steps(*runner, steps), instance->rtol(r->variant),
                                         instance->atol(r->variant));
      note_capture_failures(*r, *runner);
      r->max_abs_error = result.max_abs_error;
      if (!result.ok) fail(*r, result.message);
    } catch (const std::exception& e) {
      fail(*r, e.what());
    }
  }

  // Timing, interleaved, of every variant that validated.
  std::vector<std::unique_ptr<VariantRunner>> runners;
  std::vector<TimedVariant> timed;
  std::vector<ResultRecord*> timed_records;
  for (auto* r : to_run) {
    if (r->status != RecordStatus::kOk) continue;
    try {
      auto runner = instance->make_runner(r->variant, /*validation=*/false);
      if (r->variant == context.slowdown_variant && context.slowdown_factor > 1) {
        runner = std::make_unique<RepeatedStepRunner>(std::move(runner), context.slowdown_factor);
        r->warnings.push_back(fmt::format("test-only slowdown injected: every step runs {} times",
                                          context.slowdown_factor));
      }
      runners.push_back(std::move(runner));
      TimedVariant t;
      t.name = r->variant;
      t.runner = runners.back().get();
      timed.push_back(t);
      timed_records.push_back(r);
    } catch (const std::exception& e) {
      fail(*r, e.what());
    }
  }
  if (timed.empty()) return records;
  say(fmt::format("timing {} variant(s), interleaved", timed.size()));
  const auto clock_start = current_sm_clock_mhz();
  StepTimer timer(context.device.is_cuda());
  const std::string stop_reason = sample_interleaved(timed, spec.sampling, timer);
  const auto clock_end = current_sm_clock_mhz();

  const StepCost cost = instance->cost();
  const TimedVariant* eager_timed = nullptr;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    ResultRecord& r = *timed_records[i];
    if (!timed[i].error.empty()) {
      fail(r, "failed while timing: " + timed[i].error);
      continue;
    }
    fill_timing(r, timed[i], stop_reason);
    fill_roofline(r, cost, environment);
    r.counters = runners[i]->counters();
    note_capture_failures(r, *runners[i]);
    r.capture_ms = runners[i]->capture_ms();
    r.sm_clock_start_mhz = clock_start;
    r.sm_clock_end_mhz = clock_end;
    if (r.variant == "eager") eager_timed = &timed[i];
  }
  if (eager_timed != nullptr) {
    for (std::size_t i = 0; i < timed.size(); ++i) {
      ResultRecord& r = *timed_records[i];
      if (r.status != RecordStatus::kOk) continue;
      if (&timed[i] == eager_timed) {
        r.speedup_vs_eager = 1.0;  // by definition; an interval of eager against itself means nothing
        continue;
      }
      const auto ratio = stats::ratio_of_medians(eager_timed->device_us, timed[i].device_us);
      r.speedup_vs_eager = ratio.ratio;
      r.speedup_ci95 = ratio.ci95;
    }
  }
  return records;
}

}  // namespace graphbench
