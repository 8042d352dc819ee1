#include "graphbench/engine/runner/training_case.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/progress.h"
#include "graphbench/engine/runner/case_records.h"
#include "graphbench/core/stats/block_bootstrap.h"
#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace graphbench {

namespace {

// Why a completed run measured nothing worth a result (no training step, no test image), or "".
std::string nothing_done_reason(const TrainingSummary& t) {
  if (t.train_steps == 0) {
    const std::int64_t images = t.epochs.empty() ? 0 : t.epochs.front().dataset_size;
    return fmt::format("trained nothing: 0 training steps in {} epoch(s) over {} training images ({} short batch(es) "
                       "skipped: fewer images than one batch?)",
                       t.epochs.size(), images, t.skipped_batches);
  }
  for (const TrainingEpoch& e : t.epochs) {
    if (!std::isfinite(e.test_accuracy)) return fmt::format("tested nothing: no test accuracy after epoch {} (empty test set?)", e.epoch);
  }
  return "";
}

// The run's per-step block times as the record's raw samples, so `compare` gates training runs too.
void fill_step_samples(ResultRecord& record) {
  const TrainingSummary& t = *record.training;
  if (t.step_samples_us.empty()) return;
  record.samples_us = t.step_samples_us;
  record.steps_per_sample = t.steps_per_block;
  record.stats = stats::summarize(record.samples_us);
  record.rel_noise = stats::median_block_noise(record.samples_us);
}

// The seconds of a run's epochs, training and testing: what its time limit counts.
double epochs_seconds(const TrainingSummary& t) {
  double seconds = 0.0;
  for (const TrainingEpoch& e : t.epochs) seconds += e.train_seconds + e.test_seconds;
  return seconds;
}

}  // namespace

void note_training_limit(ResultRecord& record, const CaseSpec& spec, const CaseContext& limited, std::ostream* log,
                         const std::string& where) {
  const TrainingSummary& t = *record.training;
  if (!t.time_limit_note.empty()) record.warnings.push_back(t.time_limit_note);
  if (limited.training_limit && log != nullptr) {
    // What the limit counted: the epochs, from the first training step.
    *log << fmt::format("  {}: trained {} epoch(s) in {}{} (its time limit: {})", spec.name, t.epochs.size(),
                        format_duration(epochs_seconds(t)), where, format_duration(limited.training_limit->seconds))
         << std::endl;
  }
}

CaseContext with_training_limit(const CaseSpec& spec, const CaseContext& context, std::ostream* log,
                                const SkipReasonFn& why) {
  CaseContext limited = context;
  if (!context.time_limit_cuts_validation) return limited;
  CaseContext::TrainingLimit limit;
  limit.variants = std::max<int>(1, std::count_if(spec.variants.begin(), spec.variants.end(),
                                                  [&](const Variant& v) { return why(v).empty(); }));
  limit.seconds = spec.sampling.max_time_s / limit.variants;
  limit.say = case_log(log, spec.name);
  limited.training_limit = limit;
  return limited;
}

std::vector<ResultRecord> run_training_case(const Workload& workload, const CaseSpec& spec,
                                            const CaseContext& context, std::ostream* log) {
  std::vector<ResultRecord> records;
  const CaseContext limited =
      with_training_limit(spec, context, log, [&](const Variant& v) { return skip_reason(v, context); });
  for (const auto& variant : spec.variants) {
    ResultRecord record = make_record(spec, variant, context);
    const std::string why = skip_reason(variant, context);
    if (!why.empty()) {
      mark_skipped(record, why);
      records.push_back(std::move(record));
      continue;
    }
    if (log != nullptr) *log << "  " << spec.name << ": training, variant " << variant.name() << std::endl;
    try {
      at::manual_seed(context.seed);
      record.training = workload.train(spec, variant, limited);
      fill_step_samples(record);
      note_training_limit(record, spec, limited, log);
      if (const std::string why = nothing_done_reason(*record.training); !why.empty()) mark_failed(record, why);
    } catch (const InputError&) {
      throw;  // bad data or settings: the suite runner records it for every variant
    } catch (const CaseSkipped& e) {
      if (log != nullptr) *log << "  " << spec.name << ": " << e.what() << std::endl;
      mark_skipped(record, e.what());
    } catch (const std::exception& e) {
      mark_failed(record, e.what());
    }
    records.push_back(std::move(record));
  }
  fill_training_speedups(records, spec);
  return records;
}

void fill_training_speedups(std::vector<ResultRecord>& records, const CaseSpec& spec) {
  const ResultRecord* eager = nullptr;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ResultRecord& r = records[i];
    if (spec.variants[i].is_eager_baseline() && r.status == RecordStatus::kOk && r.training) eager = &r;
  }
  for (auto& r : records) {
    if (eager != nullptr && r.status == RecordStatus::kOk && r.training && r.training->total_seconds > 0) {
      r.speedup_vs_eager = eager->training->total_seconds / r.training->total_seconds;
    }
  }
}

}  // namespace graphbench
