#include "graphbench/engine/runner/case_profile.h"

#include "graphbench/core/record/launches.h"
#include "graphbench/engine/timing/kernel_profile.h"

#include <fmt/format.h>

#include <cmath>

namespace graphbench {

namespace {

std::string kernel_names(const KernelProfile& profile) {
  std::string names;
  for (const KernelStat& k : profile.kernels) {
    names += fmt::format("{}{} x{:.3g}", names.empty() ? "" : ", ", k.name, k.per_step);
  }
  return names;
}

bool same_count(double a, double b) { return std::fabs(a - b) < 0.01; }

}  // namespace

std::string kernel_check_failure(std::optional<int> expected, const std::vector<GraphFacts>& graphs,
                                 const std::optional<KernelProfile>& profile) {
  if (!expected) return "";
  for (const GraphFacts& g : graphs) {
    if (g.kernel_nodes && *g.kernel_nodes != *expected) {
      return fmt::format(
          "the captured graph launches {} kernels per replay where this variant must launch {}: it is not the "
          "optimised function (captured before TorchScript fused it, or an unfused fallback)",
          *g.kernel_nodes, *expected);
    }
  }
  const bool graph_counted = !graphs.empty() && graphs.front().kernel_nodes.has_value();
  if (graph_counted || !profile) return "";
  if (!same_count(profile->kernels_per_step, *expected)) {
    return fmt::format("a step launches {:.3g} kernels where this variant must launch {}: it is not the optimised "
                       "function ({})",
                       profile->kernels_per_step, *expected, kernel_names(*profile));
  }
  return "";
}

std::string profiler_visibility_warning(const std::vector<GraphFacts>& graphs, const std::optional<KernelProfile>& profile) {
  if (!profile || graphs.size() != 1 || !graphs.front().kernel_nodes) return "";
  const double nodes = static_cast<double>(*graphs.front().kernel_nodes);
  // More is no gap: a step may launch kernels beside the graph (the feed's copies, generator offsets).
  if (same_count(profile->kernels_per_step, nodes) || profile->kernels_per_step > nodes) return "";
  return fmt::format("the profiler saw {:.3g} kernels per step, the captured graph has {} kernel nodes: the "
                     "profile of this graph is incomplete",
                     profile->kernels_per_step, nodes);
}

namespace {

// Why `profile` cannot be whole, or "".
std::string profile_gap(const std::vector<GraphFacts>& graphs, std::optional<int> expected_kernels,
                        const KernelProfile& profile) {
  if (!(profile.kernels_per_step + profile.copies_per_step > 0)) return "the profiler recorded no GPU work";
  // Every profiled step runs the same work: a fraction of a kernel per step means lost records.
  if (std::abs(profile.kernels_per_step - std::round(profile.kernels_per_step)) > 1e-6) {
    return fmt::format("the profiler saw {:.3g} kernels per step, not a whole number", profile.kernels_per_step);
  }
  // The kernel check catches more kernels than the variant must launch (an unfused function); fewer
  // are records lost (seen on an H200 with other processes profiling the same GPU: a copy recorded,
  // the step's one kernel not), which must not fail a correct variant.
  if (expected_kernels && profile.kernels_per_step < *expected_kernels &&
      !same_count(profile.kernels_per_step, *expected_kernels)) {
    return fmt::format("the profiler saw {:.3g} kernels per step where this variant launches {}",
                       profile.kernels_per_step, *expected_kernels);
  }
  return profiler_visibility_warning(graphs, profile);
}

}  // namespace

std::optional<KernelProfile> profile_until_whole(const std::function<std::optional<KernelProfile>()>& take,
                                                 const std::vector<GraphFacts>& graphs,
                                                 std::optional<int> expected_kernels,
                                                 std::vector<std::string>& warnings) {
  std::string gap;
  for (int attempt = 0; attempt < kProfileAttempts; ++attempt) {
    std::optional<KernelProfile> profile = take();
    if (!profile) return std::nullopt;
    gap = profile_gap(graphs, expected_kernels, *profile);
    if (gap.empty()) return profile;
  }
  warnings.push_back(fmt::format("no kernel profile: {}, {} times (CUPTI lost activity records); kernels per step "
                                 "and busy time are left out",
                                 gap, kProfileAttempts));
  return std::nullopt;
}

void profile_variants(TimedCase& timed, const CaseInstance& instance, const CaseContext& context) {
  const bool cuda = context.device.is_cuda();
  for (std::size_t i = 0; i < timed.runners.size(); ++i) {
    const Variant& variant = timed.variants[i].variant;
    ResultRecord& record = *timed.variants[i].record;
    if (!timed.timed[i].error.empty()) continue;  // failed while timing: summarised as such
    VariantRunner& runner = *timed.runners[i];
    const std::optional<int> expected = instance.expected_kernels_per_step(variant);
    record.graphs = runner.graphs();
    record.graphs_per_step = runner.graphs_per_step();
    if (context.profile && kernel_profiler_available(cuda)) {
      try {
        const auto take = [&] { return profile_kernels([&runner] { runner.step(); }, kProfiledSteps, cuda); };
        record.profile = profile_until_whole(take, record.graphs, expected, record.warnings);
      } catch (const std::exception& e) {
        record.warnings.push_back(std::string("no kernel profile: ") + e.what());
      }
    }
    record.launches_per_step = launches_per_step(record);
    const std::string failure = kernel_check_failure(expected, record.graphs, record.profile);
    if (!failure.empty()) mark_failed(record, failure);
  }
}

}  // namespace graphbench
