#include "graphbench/parallel/cases/data_parallel_case.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/cases/agreement.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/parallel/cases/no_all_reduce_step.h"
#include "graphbench/parallel/cases/replica_checks.h"
#include "graphbench/parallel/cases/replicas.h"
#include "graphbench/parallel/cases/scaling.h"
#include "graphbench/engine/runner/phase_laps.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/case_trace.h"
#include "graphbench/engine/runner/case_summary.h"
#include "graphbench/engine/runner/case_timing.h"
#include "graphbench/engine/runner/data_parallel.h"
#include "graphbench/core/report/progress.h"
#include "graphbench/engine/runner/validation.h"
#include "graphbench/core/sampling/case_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

namespace graphbench::parallel {

std::string data_parallel_skip_reason(const Variant& variant, const CaseContext& context) {
  std::string why = skip_reason(variant, context);
  if (why.empty() && variant.source() != StepSource::kEngine) {
    why = "no data-parallel form: the gradient all-reduce is an op of the engine's programs (eager, static, graph)";
  }
  return why;
}

namespace {

// After a phase: a variant that failed on any rank fails on every rank, with the ranks' reasons.
void agree_on_records(Communicator& communicator, const std::vector<VariantRecord>& variants) {
  for (const VariantRecord& v : variants) {
    const bool failed = v.record->status == RecordStatus::kFailed;
    const std::string agreed = agree_on_errors(communicator, failed ? v.record->reason : "");
    if (!agreed.empty()) mark_failed(*v.record, agreed);
  }
}

// This rank's data-parallel instance (nullptr: none), made on every rank or none; buckets logged in `bucket_log`.
std::unique_ptr<DataParallelCase> instantiate(const Workload& workload, const CaseSpec& spec, const CaseContext& context,
                                              const std::shared_ptr<Communicator>& communicator,
                                              const std::shared_ptr<GradientBucketLog>& bucket_log,
                                              std::vector<ResultRecord>& records) {
  std::unique_ptr<DataParallelCase> instance;
  const std::string agreed = make_on_every_rank(communicator, spec, context, bucket_log, [&](const auto& setup) {
    instance = workload.instantiate_data_parallel(spec, context, setup);
  });
  if (!agreed.empty()) {
    for (auto& r : records) mark_failed(r, "setting up the case failed: " + agreed);
    return nullptr;
  }
  if (!instance) {
    for (auto& r : records) {
      if (r.status == RecordStatus::kOk) {
        mark_skipped(r, fmt::format("workload {} has no data-parallel form for this case", spec.workload));
      }
    }
    return nullptr;
  }
  // The replicas start equal: rank 0's params.
  broadcast_store(*communicator, instance->initial_params());
  return instance;
}

// After timing: the params of every timed runner must still be bit-identical on every rank.
void check_replicas_after_timing(Communicator& communicator, const DataParallelCase& instance, TimedCase& timed) {
  for (std::size_t i = 0; i < timed.timed.size(); ++i) {
    std::vector<at::Tensor> params;
    std::string error;
    try {
      if (timed.timed[i].error.empty()) params = observed_params(*timed.runners[i], instance);
    } catch (const std::exception& e) {
      error = e.what();
    }
    const Agreement agreement = agree_across_ranks(communicator, params.empty() ? 0 : fingerprint(params));
    if (!params.empty() && !agreement.same) {
      timed.timed[i].error = "params differ across ranks after timing: " + agreement.describe();
    }
  }
}

// The spec of one timed phase of a case under a limit: `seconds` of sampling.
CaseSpec phase_spec(const CaseSpec& spec, double seconds) {
  CaseSpec phase = spec;
  phase.sampling.max_time_s = std::max(seconds, 0.0);
  phase.sampling.min_time_s = std::min(phase.sampling.min_time_s, phase.sampling.max_time_s);
  return phase;
}

}  // namespace

std::vector<ResultRecord> run_data_parallel_case(const Workload& workload, const CaseSpec& spec,
                                                 const CaseContext& context, const Environment& environment,
                                                 const std::shared_ptr<Communicator>& communicator, std::ostream* log) {
  Communicator& comm = *communicator;
  std::vector<ResultRecord> records = make_records(spec, context);
  const auto say = case_log(log, spec.name);
  std::vector<VariantRecord> runnable =
      runnable_variants(spec, records, [&](const Variant& v) { return data_parallel_skip_reason(v, context); });

  const auto bucket_log = std::make_shared<GradientBucketLog>();
  const auto setup_started = std::chrono::steady_clock::now();
  auto instance = instantiate(workload, spec, context, communicator, bucket_log, records);
  const double own_setup_s = seconds_since(setup_started);
  if (!instance) return records;
  // The case's own reasons (the same on every rank: they depend on the case and the build).
  runnable = runnable_variants(runnable, [&](const Variant& v) { return instance->skip_reason(v); });
  if (runnable.empty()) return records;

  // Under a limit for the whole case, the rule of one process (docs/measuring.md, "The time limit of
  // a case"), the ranks deciding together by the slowest rank's clock.
  const SamplingAgreement agreement = sampling_agreement(comm);
  const bool limited = context.time_limit_cuts_validation;
  const auto case_started = std::chrono::steady_clock::now();
  PhaseLaps laps(case_started);  // where this rank's time went, for the closing line under a limit
  // Seconds since the case started by the slowest rank's clock (a collective: every rank asks).
  const auto spent_s = [&] { return slowest_rank_s(&agreement, seconds_since(case_started)); };
  DataParallelMinimum minimum;
  double step_s = 0.0;
  // Every later instance counted as long as this one took to set up, on the CPU. On a GPU the first
  // pays once for the process (the CUDA context: 3.5 s against milliseconds on an H200), so there the
  // one-process reference's set-up counts, once timed.
  const double setup_s = limited && !context.device.is_cuda() ? slowest_rank_s(&agreement, own_setup_s) : 0.0;
  if (limited && !context.device.is_cuda()) {
    // On the CPU the roofline may tell before a step runs, by the ranks' highest peaks (one decision).
    const StepCost cost = instance->cost();
    const DevicePeaks& own = cpu_peaks();
    const auto peaks = agreement.max_over_ranks({static_cast<std::int64_t>(own.flops_per_s * 1e-3),
                                                 static_cast<std::int64_t>(own.bytes_per_s * 1e-3)});
    const std::string why = roofline_too_long_reason(
        cost.flops, cost.bytes, static_cast<double>(peaks[0]) * 1e3, static_cast<double>(peaks[1]) * 1e3,
        static_cast<int>(runnable.size()), instance->validation_steps(), comm.world_size(), spec.sampling);
    if (skipped_all(why, runnable, say)) return records;
  }
  if (limited) {
    std::string failed;
    try {
      step_s = probe_eager_step_s(*instance, runnable, spec.sampling.max_time_s, context.device.is_cuda(), &agreement);
    } catch (const DistributedError&) {
      throw;
    } catch (const std::exception& e) {
      failed = e.what();  // validation runs eager again and reports what failed
    }
    if (!agree_on_errors(comm, failed).empty()) step_s = 0.0;
    minimum = data_parallel_minimum(step_s, static_cast<int>(runnable.size()), instance->validation_steps(),
                                    comm.world_size(), spec.sampling, setup_s);
    const std::string why = data_parallel_too_long_reason(
        step_s, static_cast<int>(runnable.size()), instance->validation_steps(), comm.world_size(), spec.sampling, setup_s);
    if (skipped_all(why, runnable, say)) return records;
    say(fmt::format("one eager step took {} on the slowest rank, so this case takes at most {} (its time limit), at "
                    "the least {}",
                    format_duration(step_s), format_duration(spec.sampling.max_time_s),
                    format_duration(minimum.total_s())));
  }
  laps.lap("probe");
  say(fmt::format("validating against eager on each of {} ranks ({})", comm.world_size(), comm.backend()));
  // Validation leaves the rest of the minimum its time (a budget of 0 would be none at all).
  const double validation_budget =
      limited ? std::max(validation_budget_s(spec.sampling.max_time_s, spent_s(), minimum.after_validation_s()), 1e-6)
              : 0.0;
  const auto validation_started = std::chrono::steady_clock::now();
  ValidatedRuns validated;  // what each variant's validation run observed: the replica check reads it
  validate_against_eager(*instance, runnable, {}, validation_budget, &agreement, &validated);
  agree_on_records(comm, runnable);
  // One process is compared after one step only where validation used its share of the limit (on
  // the slowest rank), or a check of every step would leave the timed phases less than their minimum.
  const double validation_s = seconds_since(validation_started);
  const bool check_fits =
      !limited || (1.0 - kAfterSamplingShare) * spec.sampling.max_time_s - spent_s() -
                          comm.world_size() * instance->validation_steps() * step_s >=
                      minimum.after_validation_s() - minimum.one_process_s;
  const bool short_check =
      limited && (!check_fits || agreement.max_over_ranks({validation_s >= validation_budget ? 1 : 0})[0] != 0);

  laps.lap("validation");
  say(short_check ? "checking the params: bit-identical on every rank, close to one process on the global batch "
                    "after one step (validation used its share of --max-time)"
                  : "checking the params: bit-identical on every rank, close to one process on the global batch");
  if (short_check) {
    for (const auto& v : runnable) {
      if (v.record->status != RecordStatus::kOk) continue;
      v.record->warnings.push_back(fmt::format(
          "params compared with one process on the global batch after 1 step, not {}: {}",
          instance->validation_steps(),
          check_fits ? "validation used its share of the case's time limit"
                     : "the steps of the whole check would leave the timed phases less than their minimum under the "
                       "case's time limit"));
    }
  }
  std::vector<ReplicaCheck> checks;
  double one_setup_s = 0.0;
  try {
    const auto one_started = std::chrono::steady_clock::now();
    DataParallelSetup whole;  // no all-reduce: every shard of the global batch in one process
    whole.ranks = comm.world_size();
    whole.shard = DataParallelSetup::kWholeBatch;
    auto one = instance_from(workload, spec, context, whole, instance->initial_params());
    one_setup_s = seconds_since(one_started);
    checks = check_replicas(comm, *instance, *one, runnable, spec.gradient_sync.dtype == "bfloat16", &validated,
                            short_check);
  } catch (const std::exception& e) {
    // Only the one-process instance can throw here, and it throws alike on every rank.
    for (const auto& v : runnable) mark_failed(*v.record, std::string("the one-process reference failed: ") + e.what());
  }
  const DataParallelFigures world = world_figures(comm, instance->samples_per_step());
  for (std::size_t i = 0; i < checks.size(); ++i) {
    DataParallelFigures d = world;
    d.params_identical = checks[i].identical;
    d.max_error_vs_one_process = checks[i].max_error_vs_one_process;
    runnable[i].record->data_parallel = d;
  }

  // What is left of the limit (less the after-sampling share and the instances still to make), by the
  // slowest rank's clock, shared by the timed phases, each rescaled when it starts. Without a limit
  // for the whole case, each phase has the case's limit for its warm-up and sampling.
  const int instances_left = minimum.instances - 1;  // the one-process reference is made
  if (limited) minimum.setup_s = slowest_rank_s(&agreement, one_setup_s);  // as long as the one-process reference's
  const auto left_s = [&](int instances) {
    return (1.0 - kAfterSamplingShare) * spec.sampling.max_time_s - spent_s() - instances * minimum.setup_s;
  };
  DataParallelPhaseShares shares;
  if (limited) shares = data_parallel_phase_shares(left_s(instances_left), minimum);
  // The phase `planned_s` of those still to run (`planned_left_s`, itself included), from what is left now.
  const auto phase_now = [&](double planned_s, double planned_left_s, int instances) {
    return limited ? phase_spec(spec, rolling_phase_seconds(planned_s, planned_left_s, left_s(instances))) : spec;
  };

  laps.lap("params check");
  say("timing the validated variants, interleaved, the ranks in step");
  TimedCase timed = time_variants(*instance, runnable, spec, context, &agreement,
                                  limited ? std::optional<double>(shares.timed) : std::nullopt);
  check_replicas_after_timing(comm, *instance, timed);
  // Every rank traces the same variants (their records agree), so their collectives pair up.
  if (!context.trace_dir.empty()) say("tracing a few steps of each variant on every rank into " + context.trace_dir);
  trace_variants(timed, context, comm.rank());
  summarize_timing(timed, instance->cost(), environment);
  DataParallelTimings timings;
  timings.ranks = gather_rank_timings(comm, timed);
  const std::map<std::string, std::vector<double>> own = samples_of(timed);
  // The runners (and their graphs) are no longer needed.
  for (auto& runner : timed.runners) runner.reset();

  laps.lap("timed");
  if (!timed.timed.empty()) {
    say("timing the same variants without all-reduce, each rank on its shard (the exposed all-reduce)");
    timings.no_all_reduce =
        time_without_all_reduce(comm, workload,
                                phase_now(shares.no_all_reduce,
                                          shares.no_all_reduce + shares.all_reduce_alone + shares.one_rank,
                                          instances_left),
                                context, instance->initial_params(), timed.variants);
    laps.lap("without all-reduce");
    say("timing the gradient all-reduce alone");
    try {
      timings.all_reduce_us = time_all_reduce_alone(communicator, instance->gradient_specs(),
                                                    average_options(spec.gradient_sync), bucket_log->order,
                                                    phase_now(shares.all_reduce_alone,
                                                              shares.all_reduce_alone + shares.one_rank,
                                                              instances_left - 1),
                                                    context);
    } catch (const DistributedError&) {
      throw;
    } catch (const std::exception& e) {
      for (const auto& v : timed.variants) v.record->warnings.push_back(std::string("all-reduce alone: ") + e.what());
    }
    laps.lap("all-reduce alone");
    if (comm.world_size() > 1) say("timing the same variants on rank 0 alone (the one-rank baseline)");
    const CaseSpec one_rank_spec =
        comm.world_size() > 1 ? phase_now(shares.one_rank, shares.one_rank, instances_left - 1) : spec;
    timings.one_rank =
        time_one_rank(communicator, workload, one_rank_spec, context, instance->initial_params(), timed.variants, own);
    if (comm.world_size() > 1) laps.lap("rank 0 alone");
  }
  fill_data_parallel_figures(timed, timings, *instance, spec.gradient_sync, bucket_log->buckets.size(), comm);
  if (limited) {
    say(fmt::format("took {} on rank {} (its time limit: {}): {}", format_duration(seconds_since(case_started)),
                    comm.rank(), format_duration(spec.sampling.max_time_s), laps.text()));
  }
  return records;
}

}  // namespace graphbench::parallel
