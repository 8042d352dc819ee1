#include "graphbench/engine/runner/sweep_memory.h"

#include "graphbench/engine/exec/cached_memory.h"
#include "graphbench/engine/exec/error_text.h"
#include "graphbench/engine/exec/shared_graph_pool.h"
#include "graphbench/core/sweep/sweep_verdict.h"
#include "graphbench/engine/timing/step_timer.h"

#include <algorithm>
#include <memory>

namespace graphbench {

namespace {

// The graph variants the sweep's records show (a capture time at some point), in record order.
std::vector<std::string> graph_variants_of(const std::vector<ResultRecord>& records, const std::string& group) {
  std::vector<std::string> variants;
  for (const ResultRecord& r : records) {
    if (!r.sweep || r.sweep->group != group || !r.capture_ms || r.status != RecordStatus::kOk) continue;
    if (std::find(variants.begin(), variants.end(), r.variant) == variants.end()) variants.push_back(r.variant);
  }
  return variants;
}

const CaseSpec* point_with_value(const std::vector<const CaseSpec*>& points, std::int64_t value) {
  for (const CaseSpec* p : points) {
    if (p->sweep_point && p->sweep_point->value == value) return p;
  }
  return nullptr;
}

void capture_together(SharedPoolMeasurement& m, const Workload& workload, const std::vector<const CaseSpec*>& points,
                      const CaseContext& context) {
  // Declared first, destroyed last: the graphs go before their pool.
  SharedGraphPool pool;
  std::vector<std::unique_ptr<CaseInstance>> instances;
  std::vector<std::unique_ptr<VariantRunner>> runners;
  for (const std::int64_t size : m.sizes) {
    const CaseSpec* spec = point_with_value(points, size);
    if (spec == nullptr) throw std::runtime_error("no case for size " + std::to_string(size));
    at::manual_seed(context.seed);
    instances.push_back(workload.instantiate(*spec, context));
    runners.push_back(instances.back()->make_runner(Variant::named(m.variant), /*validation=*/false));
    runners.back()->step();  // captures (a runner that captured when made replays)
  }
  synchronize_device(true);
  m.reserved_bytes = pool.reserved_bytes();
  if (!m.reserved_bytes) m.error = "this LibTorch cannot read a pool's size";
}

}  // namespace

std::vector<SharedPoolMeasurement> measure_shared_pools(const Workload& workload, const std::vector<const CaseSpec*>& points,
                                                        const std::vector<ResultRecord>& records,
                                                        const CaseContext& context) {
  std::vector<SharedPoolMeasurement> out;
  if (points.empty() || !points.front()->sweep_point || !context.device.is_cuda()) return out;
  const SweepPoint& first = *points.front()->sweep_point;
  for (const std::string& variant : graph_variants_of(records, first.group)) {
    const SweepVerdict verdict = verdict_of(records, first.group, first.axis, variant);
    if (verdict.capture_sizes.empty()) continue;
    SharedPoolMeasurement m;
    m.group = first.group;
    m.variant = variant;
    m.sizes.assign(verdict.capture_sizes.rbegin(), verdict.capture_sizes.rend());  // largest first
    try {
      capture_together(m, workload, points, context);
    } catch (const std::exception& e) {
      m.reserved_bytes.reset();
      m.error = error_text(e);
    }
    try {
      release_cached_device_memory();  // the pool and its cases are gone: as after a case (engine/runner/benchmark_case.cpp)
    } catch (const std::exception&) {
      // A CUDA error left by the captures: what follows reports it.
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace graphbench
