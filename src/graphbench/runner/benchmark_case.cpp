#include "graphbench/runner/benchmark_case.h"

#include "graphbench/core/errors.h"
#include "graphbench/runner/case_profile.h"
#include "graphbench/runner/case_records.h"
#include "graphbench/runner/case_summary.h"
#include "graphbench/runner/case_timing.h"
#include "graphbench/runner/validation.h"

#include <fmt/format.h>

namespace graphbench {

std::vector<ResultRecord> run_benchmark_case(const Workload& workload, const CaseSpec& spec,
                                             const CaseContext& context, const Environment& environment,
                                             std::ostream* log) {
  std::vector<ResultRecord> records;
  records.reserve(spec.variants.size());
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
    for (auto& r : records) mark_failed(r, std::string("setting up the case failed: ") + e.what());
    return records;
  }

  std::vector<VariantRecord> runnable;
  for (std::size_t i = 0; i < records.size(); ++i) {
    // The case's own reason first: a model format this build cannot load skips every variant.
    std::string why = instance->skip_reason(spec.variants[i]);
    if (why.empty()) why = skip_reason(spec.variants[i], context);
    if (why.empty()) {
      runnable.push_back({spec.variants[i], &records[i]});
    } else {
      mark_skipped(records[i], why);
    }
  }

  if (runnable.empty()) return records;

  say("validating against eager");
  validate_against_eager(*instance, runnable);
  say("timing the validated variants, interleaved");
  TimedCase timed = time_variants(*instance, runnable, spec, context);
  if (context.profile && context.device.is_cuda()) say("profiling kernels and checking them");
  profile_variants(timed, *instance, context);
  summarize_timing(timed, instance->cost(), environment);
  return records;
}

}  // namespace graphbench
