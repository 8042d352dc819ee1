#include "graphbench/core/sweep/sweep_verdict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace graphbench {

namespace {

const SweepPointFigures* serving_ok_point_at(const std::vector<SweepPointFigures>& points, std::int64_t value) {
  for (const auto& p : points) {
    if (p.value == value && p.ok) return &p;
  }
  return nullptr;
}

// Eager at a real batch: measured there, else on the straight line between the measured sizes
// around it (`interpolated` set), else none.
std::optional<double> serving_eager_at(const std::vector<SweepPointFigures>& points, std::int64_t batch, bool& interpolated) {
  const SweepPointFigures* below = nullptr;
  const SweepPointFigures* above = nullptr;
  for (const auto& p : points) {
    if (!p.ok) continue;
    if (p.value == batch) return p.eager_us;
    if (p.value < batch && (below == nullptr || p.value > below->value)) below = &p;
    if (p.value > batch && (above == nullptr || p.value < above->value)) above = &p;
  }
  if (below == nullptr || above == nullptr) return std::nullopt;
  interpolated = true;
  const double t = static_cast<double>(batch - below->value) / static_cast<double>(above->value - below->value);
  return below->eager_us + t * (above->eager_us - below->eager_us);
}

template <typename T>
std::optional<double> serving_ratio_of(const std::optional<T>& a, const std::optional<T>& b) {
  if (!a || !b || *b <= 0) return std::nullopt;
  return static_cast<double>(*a) / static_cast<double>(*b);
}

std::string serving_sizes_text(const std::vector<std::int64_t>& sizes) { return fmt::format("{}", fmt::join(sizes, ", ")); }

}  // namespace

std::vector<std::int64_t> vllm_default_capture_sizes(std::int64_t max_batch) {
  std::vector<std::int64_t> sizes;
  for (const std::int64_t small : {1, 2, 4}) {
    if (small <= max_batch) sizes.push_back(small);
  }
  for (std::int64_t b = 8; b <= max_batch; b += 8) sizes.push_back(b);
  return sizes;
}

ServingListCost serving_list_cost(const std::vector<SweepPointFigures>& points, const std::vector<std::int64_t>& sizes,
                                  std::int64_t max_batch) {
  ServingListCost cost;
  cost.sizes = sizes;
  std::sort(cost.sizes.begin(), cost.sizes.end());
  cost.graphs = static_cast<std::int64_t>(cost.sizes.size());
  std::optional<std::int64_t> pools = 0;
  std::int64_t largest = 0;  // of the pools summed in `pools` (meaningful while it is)
  std::optional<double> capture = 0.0;
  for (const std::int64_t size : cost.sizes) {
    const SweepPointFigures* p = serving_ok_point_at(points, size);
    if (p == nullptr) {
      cost.missing.push_back(size);
      pools.reset();
      capture.reset();
      continue;
    }
    if (pools && p->pool_bytes) {
      *pools += *p->pool_bytes;
      largest = std::max(largest, *p->pool_bytes);
    } else {
      pools.reset();
    }
    if (capture && p->capture_ms) {
      *capture += *p->capture_ms + p->warmup_ms.value_or(0.0);
    } else {
      capture.reset();
    }
  }
  cost.pool_each_bytes = pools;
  if (pools && !cost.sizes.empty()) cost.largest_pool_bytes = largest;
  cost.capture_ms = capture;

  double total_us = 0.0;
  for (std::int64_t b = 1; b <= max_batch; ++b) {
    const auto target = std::lower_bound(cost.sizes.begin(), cost.sizes.end(), b);
    if (target != cost.sizes.end()) {
      if (const SweepPointFigures* p = serving_ok_point_at(points, *target)) total_us += p->step_us;
      continue;
    }
    ++cost.eager_batches;
    bool interpolated = false;
    const auto eager = serving_eager_at(points, b, interpolated);
    if (!eager) {
      cost.eager_unmeasured.push_back(b);
      continue;
    }
    if (interpolated) ++cost.eager_interpolated;
    total_us += *eager;
  }
  if (cost.missing.empty() && cost.eager_unmeasured.empty() && max_batch > 0) {
    cost.mean_step_us = total_us / static_cast<double>(max_batch);
  }
  return cost;
}

bool serving_comparison_applies(const SweepVerdict& v) {
  if (v.axis != "batch" || v.points.empty()) return false;
  return v.points.front().value == 1 && v.points.back().value >= 4;
}

ServingComparison compare_with_vllm(const SweepVerdict& v) {
  ServingComparison c;
  c.max_batch = v.points.empty() ? 0 : std::min(kServingMaxBatch, v.points.back().value);
  c.graphbench = serving_list_cost(v.points, v.capture_sizes, c.max_batch);
  c.graphbench.shared_pool_bytes = v.shared_pool_bytes;
  // vLLM's list over the sizes the sweep measured; the others named, not guessed.
  std::vector<std::int64_t> vllm_measured;
  for (const std::int64_t size : vllm_default_capture_sizes(c.max_batch)) {
    (serving_ok_point_at(v.points, size) != nullptr ? vllm_measured : c.vllm_unmeasured).push_back(size);
  }
  c.vllm = serving_list_cost(v.points, vllm_measured, c.max_batch);
  c.mean_step_ratio = serving_ratio_of(c.graphbench.mean_step_us, c.vllm.mean_step_us);
  c.graphs_ratio = serving_ratio_of<std::int64_t>(c.graphbench.graphs, c.vllm.graphs);
  c.pool_ratio = serving_ratio_of(c.graphbench.pool_each_bytes, c.vllm.pool_each_bytes);
  c.shared_pool_ratio_at_most = serving_ratio_of(c.graphbench.shared_pool_bytes, c.vllm.largest_pool_bytes);
  c.capture_ratio = serving_ratio_of(c.graphbench.capture_ms, c.vllm.capture_ms);
  if (c.vllm.sizes.empty()) {
    c.not_judged = fmt::format("the sweep did not measure the graph at any of vLLM's sizes ({})",
                               serving_sizes_text(c.vllm_unmeasured));
  } else if (!c.graphbench.eager_unmeasured.empty() || !c.vllm.eager_unmeasured.empty()) {
    c.not_judged = "eager was not measured around every batch run eagerly";
  } else if (!c.pool_ratio) {
    c.not_judged = "the graphs' pool memory was not measured at every captured size";
  } else {
    c.meets_aim = *c.mean_step_ratio <= kServingStepWithin && *c.graphs_ratio <= kServingAtMostShare &&
                  *c.pool_ratio <= kServingAtMostShare &&
                  c.shared_pool_ratio_at_most.value_or(0.0) <= kServingAtMostShare;
  }
  return c;
}

}  // namespace graphbench
