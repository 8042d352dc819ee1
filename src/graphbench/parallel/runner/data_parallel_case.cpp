#include "graphbench/parallel/runner/data_parallel_case.h"

#include "graphbench/core/errors.h"
#include "graphbench/parallel/runner/agreement.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"
#include "graphbench/parallel/runner/no_all_reduce_step.h"
#include "graphbench/parallel/runner/replica_checks.h"
#include "graphbench/parallel/runner/replicas.h"
#include "graphbench/parallel/runner/scaling.h"
#include "graphbench/runner/case_records.h"
#include "graphbench/runner/case_trace.h"
#include "graphbench/runner/case_summary.h"
#include "graphbench/runner/case_timing.h"
#include "graphbench/runner/data_parallel.h"
#include "graphbench/runner/validation.h"

#include <fmt/format.h>

#include <chrono>

namespace graphbench::parallel {

namespace {

// Why `variant` cannot run data-parallel here, or "".
std::string data_parallel_skip_reason(const Variant& variant, const CaseContext& context) {
  std::string why = skip_reason(variant, context);
  if (why.empty() && variant.source() != StepSource::kEngine) {
    why = "no data-parallel form: the gradient all-reduce is an op of the engine's programs (eager, static, graph)";
  }
  return why;
}

// After a phase: a variant that failed on any rank fails on every rank, with the ranks' reasons.
void agree_on_records(Communicator& communicator, const std::vector<VariantRecord>& variants) {
  for (const VariantRecord& v : variants) {
    const bool failed = v.record->status == RecordStatus::kFailed;
    const std::string agreed = agree_on_errors(communicator, failed ? v.record->reason : "");
    if (!agreed.empty()) mark_failed(*v.record, agreed);
  }
}

// The workload's data-parallel instance for this rank (nullptr: no data-parallel form), made on
// every rank or on none. Its programs log their gradient buckets into `bucket_log`.
std::unique_ptr<DataParallelCase> instantiate(const Workload& workload, const CaseSpec& spec, const CaseContext& context,
                                              const std::shared_ptr<Communicator>& communicator,
                                              const std::shared_ptr<GradientBucketLog>& bucket_log,
                                              std::vector<ResultRecord>& records) {
  std::unique_ptr<DataParallelCase> instance;
  std::string error;
  bool bad_input = false;
  try {
    DataParallelSetup setup;
    setup.communicator = communicator;
    setup.ranks = communicator->world_size();
    setup.shard = communicator->rank();
    setup.gradient_sync = spec.gradient_sync;
    setup.bucket_log = bucket_log;
    at::manual_seed(context.seed);
    instance = workload.instantiate_data_parallel(spec, context, setup);
  } catch (const InputError& e) {
    error = e.what();
    bad_input = true;
  } catch (const std::exception& e) {
    error = e.what();
  }
  const std::string agreed = agree_on_errors(*communicator, error);
  if (bad_input) throw InputError(error);
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

// The instance that trains on every shard of the global batch in one process (no all-reduce).
std::unique_ptr<DataParallelCase> one_process_instance(const Workload& workload, const CaseSpec& spec,
                                                       const CaseContext& context, const DataParallelCase& instance,
                                                       int ranks) {
  DataParallelSetup setup;
  setup.ranks = ranks;
  setup.shard = DataParallelSetup::kWholeBatch;
  at::manual_seed(context.seed);
  auto one = workload.instantiate_data_parallel(spec, context, setup);
  if (!one) throw EngineError("the workload made no one-process instance of its data-parallel case");
  one->initial_params().copy_values_from(const_cast<DataParallelCase&>(instance).initial_params());
  return one;
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

}  // namespace

std::vector<ResultRecord> run_data_parallel_case(const Workload& workload, const CaseSpec& spec,
                                                 const CaseContext& context, const Environment& environment,
                                                 const std::shared_ptr<Communicator>& communicator, std::ostream* log) {
  Communicator& comm = *communicator;
  std::vector<ResultRecord> records;
  records.reserve(spec.variants.size());
  for (const auto& variant : spec.variants) records.push_back(make_record(spec, variant, context));
  auto say = [&](const std::string& line) {
    if (log != nullptr) *log << "  " << spec.name << ": " << line << std::endl;
  };

  std::vector<VariantRecord> runnable;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string why = data_parallel_skip_reason(spec.variants[i], context);
    if (why.empty()) {
      runnable.push_back({spec.variants[i], &records[i]});
    } else {
      mark_skipped(records[i], why);
    }
  }

  const auto bucket_log = std::make_shared<GradientBucketLog>();
  auto instance = instantiate(workload, spec, context, communicator, bucket_log, records);
  if (!instance) return records;
  // The case's own reasons (the same on every rank: they depend on the case and the build).
  std::vector<VariantRecord> kept;
  for (const VariantRecord& v : runnable) {
    const std::string why = instance->skip_reason(v.variant);
    if (why.empty()) {
      kept.push_back(v);
    } else {
      mark_skipped(*v.record, why);
    }
  }
  runnable = std::move(kept);
  if (runnable.empty()) return records;

  // Under --max-time, validation may take its share of the limit as in one process, the ranks
  // cutting it together by the slowest rank's clock (docs/measuring.md, "The time limit of a case").
  const SamplingAgreement agreement = sampling_agreement(comm);
  say(fmt::format("validating against eager on each of {} ranks ({})", comm.world_size(), comm.backend()));
  const double validation_budget_s =
      context.time_limit_cuts_validation ? kValidationShare * spec.sampling.max_time_s : 0.0;
  const auto validation_started = std::chrono::steady_clock::now();
  ValidatedRuns validated;  // what each variant's validation run observed: the replica check reads it
  validate_against_eager(*instance, runnable, {}, validation_budget_s, &agreement, &validated);
  agree_on_records(comm, runnable);
  // Validation used its share of the limit (on the slowest rank): one process is compared after
  // one step only.
  const double validation_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - validation_started).count();
  const bool short_check =
      validation_budget_s > 0 &&
      agreement.max_over_ranks({validation_s >= validation_budget_s ? 1 : 0})[0] != 0;

  say(short_check ? "checking the params: bit-identical on every rank, close to one process on the global batch "
                    "after one step (validation used its share of --max-time)"
                  : "checking the params: bit-identical on every rank, close to one process on the global batch");
  if (short_check) {
    for (const auto& v : runnable) {
      if (v.record->status != RecordStatus::kOk) continue;
      v.record->warnings.push_back(fmt::format(
          "params compared with one process on the global batch after 1 step, not {}: validation used its share of "
          "the case's time limit",
          instance->validation_steps()));
    }
  }
  std::vector<ReplicaCheck> checks;
  try {
    auto one = one_process_instance(workload, spec, context, *instance, comm.world_size());
    checks = check_replicas(comm, *instance, *one, runnable, spec.gradient_sync.dtype == "bfloat16", &validated,
                            short_check);
  } catch (const std::exception& e) {
    // Only the one-process instance can throw here, and it throws alike on every rank.
    for (const auto& v : runnable) mark_failed(*v.record, std::string("the one-process reference failed: ") + e.what());
  }
  const DataParallelFigures world = world_figures(comm);
  for (std::size_t i = 0; i < checks.size(); ++i) {
    DataParallelFigures d = world;
    d.samples_per_rank = instance->samples_per_step();
    d.global_batch = d.samples_per_rank * d.world_size;
    d.params_identical = checks[i].identical;
    d.max_error_vs_one_process = checks[i].max_error_vs_one_process;
    runnable[i].record->data_parallel = d;
  }

  say("timing the validated variants, interleaved, the ranks in step");
  TimedCase timed = time_variants(*instance, runnable, spec, context, &agreement);
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

  if (!timed.timed.empty()) {
    say("timing the same variants without all-reduce, each rank on its shard (the exposed all-reduce)");
    timings.no_all_reduce = time_without_all_reduce(comm, workload, spec, context, instance->initial_params(),
                                                    timed.variants);
    say("timing the gradient all-reduce alone");
    try {
      timings.all_reduce_us = time_all_reduce_alone(communicator, instance->gradient_specs(),
                                                    average_options(spec.gradient_sync), bucket_log->order, spec,
                                                    context);
    } catch (const DistributedError&) {
      throw;
    } catch (const std::exception& e) {
      for (const auto& v : timed.variants) v.record->warnings.push_back(std::string("all-reduce alone: ") + e.what());
    }
    if (comm.world_size() > 1) say("timing the same variants on rank 0 alone (the one-rank baseline)");
    timings.one_rank =
        time_one_rank(communicator, workload, spec, context, instance->initial_params(), timed.variants, own);
  }
  fill_data_parallel_figures(timed, timings, *instance, spec.gradient_sync, bucket_log->buckets.size(), comm);
  return records;
}

}  // namespace graphbench::parallel
