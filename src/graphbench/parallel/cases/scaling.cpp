#include "graphbench/parallel/cases/scaling.h"

#include "graphbench/parallel/cases/agreement.h"
#include "graphbench/parallel/cases/replicas.h"
#include "graphbench/parallel/gradient_sync/all_reduce_alone.h"
#include "graphbench/parallel/communication/environment_variables.h"
#include "graphbench/core/suite/gradient_sync_fields.h"
#include "graphbench/core/stats/bootstrap.h"
#include "graphbench/core/stats/statistics.h"
#include "graphbench/engine/timing/step_timer.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace graphbench::parallel {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double median_of(const std::vector<double>& samples) {
  return samples.empty() ? kNaN : stats::summarize(samples).median;
}

// Samples by name, as JSON text.
std::string samples_text(const std::map<std::string, std::vector<double>>& samples) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, values] : samples) j[name] = values;
  return j.dump();
}

std::map<std::string, std::vector<double>> samples_from_json(const nlohmann::json& j) {
  std::map<std::string, std::vector<double>> out;
  for (const auto& item : j.items()) out[item.key()] = item.value().get<std::vector<double>>();
  return out;
}

// The largest of a variant's medians over the ranks; none when it is missing or failed on a rank.
std::optional<double> slowest_of(const std::map<std::string, std::vector<double>>& by_variant, const std::string& name) {
  const auto it = by_variant.find(name);
  if (it == by_variant.end() || it->second.empty()) return std::nullopt;
  for (double v : it->second) {
    if (!std::isfinite(v)) return std::nullopt;
  }
  return *std::max_element(it->second.begin(), it->second.end());
}

// Why a scaling efficiency above 100% can be printed: the N-rank step beat one rank alone.
std::string above_one_note(const DataParallelFigures& d, bool host_bound) {
  std::string why;
  if (d.scaling_ci95 && d.scaling_ci95->low <= 1.0) {
    why = fmt::format("its interval ({:.0f}-{:.0f}%) reaches 100%: within the noise of the two medians",
                      100.0 * d.scaling_ci95->low, 100.0 * d.scaling_ci95->high);
  } else if (host_bound) {
    why = "the step is host-bound, so both figures are the host's speed, which differed between rank 0 alone "
          "and the ranks together";
  } else {
    why = "why is not established (a trace of both phases would show it: --trace)";
  }
  return fmt::format("scaling efficiency {:.0f}% is above 100%: the slowest rank's step with {} ranks ({:.1f} us) "
                     "was faster than rank 0's alone ({:.1f} us); {}",
                     100.0 * *d.scaling_efficiency, d.world_size, d.slowest_median_us, *d.one_rank_us, why);
}

}  // namespace

std::map<std::string, std::vector<double>> samples_of(const TimedCase& timed) {
  std::map<std::string, std::vector<double>> out;
  for (const TimedVariant& t : timed.timed) {
    if (t.error.empty() && !t.device_us.empty()) out[t.name] = t.device_us;
  }
  return out;
}

RankTimings gather_rank_timings(Communicator& communicator, const TimedCase& timed) {
  std::map<std::string, std::vector<double>> mine;
  for (const TimedVariant& t : timed.timed) mine[t.name] = t.error.empty() ? t.device_us : std::vector<double>();
  RankTimings out;
  const auto all = communicator.gather_to_rank0(samples_text(mine));
  for (std::size_t r = 0; r < all.size(); ++r) {
    for (const auto& [name, samples] : samples_from_json(nlohmann::json::parse(all[r]))) {
      auto& medians = out.median_us[name];
      auto& sampled = out.samples_us[name];
      medians.resize(all.size(), kNaN);
      sampled.resize(all.size());
      medians[r] = median_of(samples);
      sampled[r] = samples;
    }
  }
  return out;
}

std::map<std::string, double> time_all_reduce_alone(const std::shared_ptr<Communicator>& communicator,
                                                    const std::vector<TensorSpec>& gradients,
                                                    const GradientAverageOptions& options,
                                                    const std::vector<std::size_t>& order, const CaseSpec& spec,
                                                    const CaseContext& context) {
  std::vector<std::unique_ptr<AllReduceAlone>> runners;
  std::vector<TimedVariant> timed;
  const bool graphs = context.device.is_cuda() && cuda_graphs_available();
  for (const ExecutorKind kind : {ExecutorKind::kEager, ExecutorKind::kGraph}) {
    if (kind == ExecutorKind::kGraph && !graphs) continue;
    runners.push_back(std::make_unique<AllReduceAlone>(communicator, gradients, kind, options, order));
    AllReduceAlone* raw = runners.back().get();
    TimedVariant t;
    t.name = kind == ExecutorKind::kGraph ? "graph" : "eager";
    t.step = [raw] { raw->step(); };
    timed.push_back(std::move(t));
  }
  StepTimer timer(context.device.is_cuda());
  const SamplingAgreement agreement = sampling_agreement(*communicator);
  sample_interleaved(timed, spec.sampling, timer, {}, &agreement);
  std::map<std::string, double> medians;
  for (const TimedVariant& t : timed) {
    if (t.error.empty()) medians[t.name] = median_of(t.device_us);
  }
  return medians;
}

OneRankBaseline time_one_rank(const std::shared_ptr<Communicator>& communicator, const Workload& workload,
                              const CaseSpec& spec, const CaseContext& context, const ModelStore& initial_params,
                              const std::vector<VariantRecord>& variants,
                              const std::map<std::string, std::vector<double>>& own) {
  if (communicator->world_size() == 1) return OneRankBaseline{own, ""};
  const std::string key = "one_rank/" + spec.name;
  if (communicator->rank() != 0) {
    // Long enough for rank 0 to time every variant (max_time_s bounds the sampling of a case).
    const auto limit = communicator->timeout() +
                       std::chrono::milliseconds(static_cast<std::int64_t>(4000.0 * spec.sampling.max_time_s)) +
                       std::chrono::minutes(1);
    const auto j = nlohmann::json::parse(communicator->store_get(key, limit));
    return OneRankBaseline{samples_from_json(j.at("samples")), j.at("error").get<std::string>()};
  }
  OneRankBaseline baseline;
  const auto started = std::chrono::steady_clock::now();
  try {
    auto solo = communicator->solo(spec.name);
    {
      DataParallelSetup setup = shard_setup(*solo, spec);
      setup.communicator = solo;
      auto instance = instance_from(workload, spec, context, setup, initial_params);
      std::vector<ResultRecord> records;
      const std::vector<VariantRecord> alone = still_ok(variants, records);
      // The graphs of the solo group end before it does (see Communicator::shutdown).
      const TimedCase timed =
          time_variants(*instance, alone, spec, context, nullptr, phase_time_left_s(spec, context, started));
      baseline.samples_us = samples_of(timed);
    }
    solo->shutdown();
  } catch (const std::exception& e) {
    baseline.samples_us.clear();
    baseline.error = e.what();
  }
  nlohmann::json message = {{"samples", nlohmann::json::parse(samples_text(baseline.samples_us))},
                            {"error", baseline.error}};
  communicator->store_set(key, message.dump());
  return baseline;
}

DataParallelFigures world_figures(const Communicator& communicator, std::int64_t samples_per_rank) {
  DataParallelFigures d;
  d.world_size = communicator.world_size();
  d.samples_per_rank = samples_per_rank;
  d.global_batch = samples_per_rank * d.world_size;
  d.backend = communicator.backend();
  d.backend_version = communicator.backend_version();
  d.backend_settings = communication_settings(current_environment(), d.backend);
  const NodeLayout& layout = communicator.node_layout();
  d.nodes = layout.nodes;
  d.hosts = layout.hosts;
  d.ranks_per_node = layout.ranks_per_node;
  const TransportReport transport = derive_transport(d.backend, layout, *d.backend_settings);
  d.transport = transport.transport;
  d.transport_basis = transport.basis;
  return d;
}

void add_sync_figures(DataParallelFigures& d, const GradientSyncSpec& sync) {
  d.grad_dtype = sync.dtype;
  d.bucket_cap_bytes = static_cast<std::int64_t>(bucket_cap_bytes(sync));
  d.overlapped = sync.overlap;
  d.chunk_cap_bytes = static_cast<std::int64_t>(chunk_cap_bytes(sync));
}

void add_rank_figures(DataParallelFigures& d, std::vector<double> rank_median_us) {
  d.rank_median_us = std::move(rank_median_us);
  if (d.rank_median_us.empty()) return;
  d.median_us = stats::summarize(d.rank_median_us).median;
  const auto slowest = std::max_element(d.rank_median_us.begin(), d.rank_median_us.end());
  d.slowest_rank = static_cast<int>(slowest - d.rank_median_us.begin());
  d.slowest_median_us = *slowest;
  if (*slowest > 0) d.samples_per_second = static_cast<double>(d.global_batch) / (*slowest * 1e-6);
}

void fill_data_parallel_figures(const TimedCase& timed, const DataParallelTimings& timings,
                                const DataParallelCase& instance, const GradientSyncSpec& sync, std::size_t buckets,
                                const Communicator& communicator) {
  std::int64_t gradient_bytes = 0;
  for (const auto& g : instance.gradient_specs()) {
    gradient_bytes += g.numel() * static_cast<std::int64_t>(c10::elementSize(g.dtype));
  }

  DataParallelFigures world = world_figures(communicator, instance.samples_per_step());
  world.gradient_bytes = gradient_bytes;
  world.buckets = static_cast<std::int64_t>(buckets);
  add_sync_figures(world, sync);
  world.chunked_gradients = instance.chunked_gradients();
  world.grad_transport = sync.transport;
  for (std::size_t i = 0; i < timed.timed.size(); ++i) {
    ResultRecord& r = *timed.variants[i].record;
    const std::string& name = timed.timed[i].name;
    DataParallelFigures d = world;
    const std::optional<double> slowest = slowest_of(timings.ranks.median_us, name);
    if (slowest) {
      add_rank_figures(d, timings.ranks.median_us.at(name));
    } else if (auto it = timings.ranks.median_us.find(name); it != timings.ranks.median_us.end()) {
      d.rank_median_us = it->second;
    }
    const bool captured = timed.variants[i].variant.needs_cuda_graph();
    if (auto it = timings.all_reduce_us.find(captured ? "graph" : "eager"); it != timings.all_reduce_us.end()) {
      d.all_reduce_us = it->second;
    }
    d.no_all_reduce_us = slowest_of(timings.no_all_reduce.rank_median_us, name);
    if (slowest && d.no_all_reduce_us) d.exposed_all_reduce_us = *slowest - *d.no_all_reduce_us;
    if (auto it = timings.one_rank.samples_us.find(name); it != timings.one_rank.samples_us.end() && !it->second.empty()) {
      d.one_rank_us = median_of(it->second);
      if (slowest) {
        const std::vector<double>& slowest_samples = timings.ranks.samples_us.at(name)[d.slowest_rank];
        const stats::RatioEstimate scaling = stats::ratio_of_medians(it->second, slowest_samples);
        d.scaling_efficiency = scaling.ratio;
        d.scaling_ci95 = scaling.ci95;
        if (scaling.ratio > 1.0) r.warnings.push_back(above_one_note(d, r.host_bound.value_or(false)));
      }
    }
    if (r.data_parallel) {  // the replica checks were filled before timing
      d.params_identical = r.data_parallel->params_identical;
      d.max_error_vs_one_process = r.data_parallel->max_error_vs_one_process;
    }
    r.data_parallel = d;
    if (!d.one_rank_us && communicator.world_size() > 1) {
      r.warnings.push_back("no one-rank baseline for this variant, so no scaling efficiency" +
                           (timings.one_rank.error.empty() ? std::string() : ": " + timings.one_rank.error));
    }
    if (!d.no_all_reduce_us) {
      r.warnings.push_back("no step without all-reduce for this variant, so no exposed all-reduce" +
                           (timings.no_all_reduce.error.empty() ? std::string() : ": " + timings.no_all_reduce.error));
    }
  }
}

}  // namespace graphbench::parallel
