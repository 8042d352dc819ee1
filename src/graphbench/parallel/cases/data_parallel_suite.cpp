#include "graphbench/parallel/cases/data_parallel_suite.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/suite/gradient_sync_fields.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/engine/runner/data_parallel.h"
#include "graphbench/engine/runner/training_case.h"
#include "graphbench/parallel/cases/data_parallel_case.h"
#include "graphbench/parallel/cases/replicas.h"
#include "graphbench/parallel/cases/scaling.h"
#include "graphbench/parallel/gradient_sync/gradient_all_reduce.h"

#include <fmt/format.h>

namespace graphbench::parallel {

namespace {

DataParallelFigures training_figures(Communicator& comm, const DataParallelTraining& run, bool identical,
                                     const GradientSyncSpec& sync, const GradientBucketLog& buckets) {
  DataParallelFigures d = world_figures(comm, run.samples_per_step);
  add_sync_figures(d, sync);
  d.buckets = static_cast<std::int64_t>(buckets.buckets.size());
  d.params_identical = identical;
  std::vector<double> rank_median_us;
  for (const auto& text : comm.gather_to_rank0(fmt::format("{}", run.summary.median_step_us))) {
    rank_median_us.push_back(std::stod(text));
  }
  add_rank_figures(d, std::move(rank_median_us));
  return d;
}

// A training case run data-parallel: each rank trains on a shard of every epoch. Records get rank 0's
// summary (the world's test figures) and data-parallel figures: the ranks' median step times, the
// slowest, samples/s, and whether all ranks ended with the same params. No one-rank baseline (a
// whole training run): the benchmark case of the same step gives the scaling efficiency.
std::vector<ResultRecord> run_data_parallel_training(const Workload& workload, const CaseSpec& spec,
                                                     const CaseContext& context,
                                                     const std::shared_ptr<Communicator>& communicator, std::ostream* log) {
  Communicator& comm = *communicator;
  std::vector<ResultRecord> records;
  // The ranks plan and cut their epochs together (core/sampling/case_budget.h).
  const CaseContext limited =
      with_training_limit(spec, context, log, [&](const Variant& v) { return data_parallel_skip_reason(v, context); });
  for (std::size_t i = 0; i < spec.variants.size(); ++i) {
    const Variant& variant = spec.variants[i];
    ResultRecord record = make_record(spec, variant, context);
    if (const std::string why = data_parallel_skip_reason(variant, context); !why.empty()) {
      mark_skipped(record, why);
      records.push_back(std::move(record));
      continue;
    }
    if (log != nullptr) {
      *log << fmt::format("  {}: training, variant {}, each of {} ranks a shard of every epoch", spec.name,
                          variant.name(), comm.world_size())
           << std::endl;
    }
    std::unique_ptr<DataParallelTraining> run;
    const auto bucket_log = std::make_shared<GradientBucketLog>();
    std::string skipped;
    const std::string agreed = make_on_every_rank(communicator, spec, context, bucket_log, [&](const auto& setup) {
      try {
        run = workload.train_data_parallel(spec, variant, limited, setup);
      } catch (const CaseSkipped& e) {
        skipped = e.what();  // the same on every rank: the ranks planned together
      }
    });
    if (!agreed.empty()) {
      mark_failed(record, agreed);
    } else if (!skipped.empty()) {
      if (log != nullptr) *log << "  " << spec.name << ": " << skipped << std::endl;
      mark_skipped(record, skipped);
    } else if (!run) {
      mark_skipped(record, fmt::format("workload {} has no data-parallel training", spec.workload));
    } else {
      const Agreement same = agree_across_ranks(comm, fingerprint(run->final_params));
      record.data_parallel = training_figures(comm, *run, same.same, spec.gradient_sync, *bucket_log);
      record.training = run->summary;
      note_training_limit(record, spec, limited, log, fmt::format(" on rank {}", comm.rank()));
      if (!same.same) mark_failed(record, "params differ across ranks after training: " + same.describe());
    }
    records.push_back(std::move(record));
  }
  fill_training_speedups(records, spec);  // of whole runs, as for one process
  return records;
}

}  // namespace

SuiteOutcome run_suite_data_parallel(const SuiteSpec& suite, const WorkloadRegistry& workloads,
                                     const CaseContext& context, Environment environment,
                                     const std::shared_ptr<Communicator>& communicator, std::ostream* log,
                                     std::ostream* errors) {
  auto run_case = [&](const Workload& workload, const CaseSpec& given, const Environment& env) {
    // What "grad_transport": "auto" is among these ranks, so that every record says what ran.
    CaseSpec spec = given;
    spec.gradient_sync.transport = resolve_transport(given.gradient_sync, *communicator);
    if (spec.kind == "training") return run_data_parallel_training(workload, spec, context, communicator, log);
    return run_data_parallel_case(workload, spec, context, env, communicator, log);
  };
  return run_suite(suite, workloads, context, std::move(environment), log, errors, run_case);
}

}  // namespace graphbench::parallel
