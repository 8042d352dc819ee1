// results.gbench.json (see writers.h).
#include "graphbench/core/report/writers.h"

#include "graphbench/core/base/text.h"
#include "graphbench/core/report/json_or_null.h"
#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace graphbench {

using nlohmann::json;

namespace {

// "2026-11-22T10:00:00Z" -> "2026-11-22T10:00:00+00:00", Google Benchmark's form of the date.
std::string gbench_date(const std::string& date_utc) {
  if (!date_utc.empty() && date_utc.back() == 'Z') return date_utc.substr(0, date_utc.size() - 1) + "+00:00";
  return date_utc;
}

std::string first_word(const std::string& text) { return text.substr(0, text.find(' ')); }

json context_json(const RunReport& report) {
  const Environment& e = report.environment;
  const std::string build = lower_case(e.build_type);
  return {{"date", gbench_date(e.date_utc)},
          {"host_name", e.host},
          {"executable", first_word(e.command_line)},
          {"num_cpus", json_or_null(e.cpu_count)},
          {"mhz_per_cpu", e.cpu_mhz ? json(static_cast<std::int64_t>(std::llround(*e.cpu_mhz))) : json(nullptr)},
          {"cpu_scaling_enabled", json_or_null(e.cpu_scaling_enabled)},
          {"caches", json::array()},
          {"load_avg", e.load_avg},
          {"library_build_type", build == "release" || build == "relwithdebinfo" || build == "minsizerel" ? "release" : "debug"},
          {"json_schema_version", 1},
          // graphbench's own keys: what the run measured on.
          {"graphbench_version", e.tool_version},
          {"suite", e.suite},
          {"device", e.device},
          {"gpu_name", e.gpu_name},
          {"driver_version", e.driver_version},
          {"cuda_runtime_version", e.cuda_runtime_version},
          {"libtorch_version", e.libtorch_version},
          {"git_commit", e.git_commit},
          {"interrupted", report.interrupted}};
}

void add_counter(json& entry, const std::string& name, std::optional<double> value) {
  if (value && std::isfinite(*value)) entry[name] = *value;
}

json base_entry(const std::string& name, std::size_t family, std::size_t instance) {
  return {{"name", name},
          {"family_index", family},
          {"per_family_instance_index", instance},
          {"run_name", name},
          {"run_type", "iteration"},
          {"repetitions", 1},
          {"repetition_index", 0},
          {"threads", 1}};
}

void set_times(json& entry, std::int64_t iterations, double real_time, double cpu_time, const char* unit) {
  entry["iterations"] = iterations;
  entry["real_time"] = real_time;
  entry["cpu_time"] = cpu_time;
  entry["time_unit"] = unit;
}

json error_entry(json entry, const ResultRecord& r) {
  entry["error_occurred"] = true;
  entry["error_message"] = r.reason.empty() ? std::string(to_string(r.status)) : fmt::format("{}: {}", to_string(r.status), r.reason);
  set_times(entry, 0, 0.0, 0.0, "us");
  return entry;
}

void add_timing_counters(json& entry, const ResultRecord& r) {
  add_counter(entry, "samples", static_cast<double>(!r.samples_us.empty() ? r.samples_us.size() : r.stats ? r.stats->count : 0));
  if (r.steps_per_sample > 0) add_counter(entry, "steps_per_sample", static_cast<double>(r.steps_per_sample));
  if (r.stats) {
    add_counter(entry, "iqr_us", r.stats->iqr);
    add_counter(entry, "min_us", r.stats->min);
    add_counter(entry, "max_us", r.stats->max);
    add_counter(entry, "mean_us", r.stats->mean);
  }
  add_counter(entry, "speedup_vs_eager", r.speedup_vs_eager);
  if (r.speedup_ci95) {
    add_counter(entry, "speedup_ci_low", r.speedup_ci95->low);
    add_counter(entry, "speedup_ci_high", r.speedup_ci95->high);
  }
  add_counter(entry, "capture_ms", r.capture_ms);
  if (r.graphs_per_step) add_counter(entry, "graphs_per_step", static_cast<double>(*r.graphs_per_step));
  add_counter(entry, "launches_per_step", r.launches_per_step);
  if (r.roofline) {
    add_counter(entry, "achieved_gbps", r.roofline->achieved_gbps);
    add_counter(entry, "bandwidth_share", r.roofline->bandwidth_share);
  }
  if (r.published) add_counter(entry, "published_speedup", r.published->speedup);
  add_counter(entry, "issue_median_us", r.issue_median_us);
  add_counter(entry, "back_to_back_us", r.back_to_back_us);
  if (r.profile) {
    add_counter(entry, "kernels_per_step", r.profile->kernels_per_step);
    add_counter(entry, "busy_us_per_step", r.profile->busy_us_per_step);
    add_counter(entry, "busy_share", r.profile->busy_share);
  }
  if (r.memory) {
    add_counter(entry, "peak_allocated_bytes", static_cast<double>(r.memory->peak_allocated_bytes));
    add_counter(entry, "peak_reserved_bytes", static_cast<double>(r.memory->peak_reserved_bytes));
    if (r.memory->graph_pool_bytes) add_counter(entry, "graph_pool_bytes", static_cast<double>(*r.memory->graph_pool_bytes));
  }
  // The GPU's clocks and power around the samples, and energy per step (numbers only: the
  // throttle reasons, being names, are counted here and named in results.json).
  add_counter(entry, "sm_clock_start_mhz", r.sm_clock_start_mhz);
  add_counter(entry, "sm_clock_end_mhz", r.sm_clock_end_mhz);
  if (r.gpu_conditions) {
    const GpuConditions& g = *r.gpu_conditions;
    add_counter(entry, "sm_clock_mean_mhz", g.sm_clock_mean_mhz);
    add_counter(entry, "memory_clock_end_mhz", g.memory_clock_mhz.end);
    add_counter(entry, "temperature_end_c", g.temperature_c.end);
    add_counter(entry, "power_end_w", g.power_w.end);
    if (g.throttle_reasons) add_counter(entry, "throttle_reasons", static_cast<double>(g.throttle_reasons->size()));
  }
  if (r.energy) {
    add_counter(entry, "energy_per_step_j", r.energy->joules_per_step);
    add_counter(entry, "energy_vs_eager", r.energy->vs_eager);
  }
  for (const auto& [name, value] : r.counters) add_counter(entry, name, static_cast<double>(value));
}

std::string label_of(const ResultRecord& r) {
  // The capture scope only where it is not the whole step (labels of other runs are unchanged).
  return fmt::format("{} {} {} {} {}{}{}", r.workload, to_string(r.kind), to_string(r.mode), r.dtype, r.device,
                     r.method == StepMethod::kUnknown ? "" : std::string(" ") + to_string(r.method), r.scope == "full" ? "" : " scope=" + r.scope);
}

// Each sample as a repetition (an "iteration" entry with its repetition_index), then the
// aggregates of the samples with the record's counters, as --benchmark_repetitions writes them:
// what google/benchmark's tools/compare.py needs for its Mann-Whitney U test.
void add_repetitions(json& benchmarks, const json& entry, const ResultRecord& r) {
  const std::string name = entry.at("name").get<std::string>();
  const std::size_t n = r.samples_us.size();
  const bool host_per_sample = r.host_samples_us.size() == n;
  const std::int64_t steps = std::max<std::int64_t>(r.steps_per_sample, 1);
  for (std::size_t k = 0; k < n; ++k) {
    json repetition = entry;
    repetition["repetitions"] = n;
    repetition["repetition_index"] = k;
    set_times(repetition, steps, r.samples_us[k], host_per_sample ? r.host_samples_us[k] : r.samples_us[k], "us");
    benchmarks.push_back(std::move(repetition));
  }
  const stats::Summary device = stats::summarize(r.samples_us);
  const stats::Summary host = host_per_sample ? stats::summarize(r.host_samples_us) : device;
  struct Aggregate {
    const char* name;
    double real_time;
    double cpu_time;
    const char* unit;  // aggregate_unit: "time", or "percentage" (a fraction) for cv
  };
  const Aggregate aggregates[] = {{"mean", device.mean, host.mean, "time"},
                                  {"median", device.median, host.median, "time"},
                                  {"stddev", device.stddev, host.stddev, "time"},
                                  {"cv", device.cv, host.cv, "percentage"}};
  for (const Aggregate& a : aggregates) {
    json aggregate = entry;
    aggregate["name"] = fmt::format("{}_{}", name, a.name);
    aggregate["run_type"] = "aggregate";
    aggregate["repetitions"] = n;
    aggregate.erase("repetition_index");
    aggregate["aggregate_name"] = a.name;
    aggregate["aggregate_unit"] = a.unit;
    set_times(aggregate, static_cast<std::int64_t>(n), std::isfinite(a.real_time) ? a.real_time : 0.0,
              std::isfinite(a.cpu_time) ? a.cpu_time : 0.0, "us");
    // The record's counters belong to the whole record: on its central figures.
    if (std::string(a.name) == "mean" || std::string(a.name) == "median") add_timing_counters(aggregate, r);
    benchmarks.push_back(std::move(aggregate));
  }
}

void add_record(json& benchmarks, const ResultRecord& r, std::size_t family, std::size_t instance) {
  const std::string name = r.case_name + "/" + r.variant;
  json entry = base_entry(name, family, instance);
  entry["label"] = label_of(r);
  if (r.status != RecordStatus::kOk) {
    benchmarks.push_back(error_entry(std::move(entry), r));
    return;
  }
  if (!r.samples_us.empty()) {
    add_repetitions(benchmarks, entry, r);
  } else {
    // A record read back without its samples (a training run's file of before): one entry with its
    // summaries.
    std::optional<double> device = r.stats ? std::optional<double>(r.stats->median) : std::nullopt;
    if (!device && r.training) device = r.training->median_step_us;
    const double real_time = device.value_or(0.0);
    const double cpu_time = r.host_stats ? r.host_stats->median : real_time;
    const std::size_t samples = r.stats ? r.stats->count : 0;
    set_times(entry, static_cast<std::int64_t>(samples) * std::max<std::int64_t>(r.steps_per_sample, 1), real_time,
              cpu_time, "us");
    add_timing_counters(entry, r);
    benchmarks.push_back(entry);
  }
  if (!r.training) return;

  const TrainingSummary& t = *r.training;
  json total = base_entry(name + "/total_time", family, instance);
  total["label"] = label_of(r);
  set_times(total, 1, t.total_seconds, t.total_seconds, "s");
  add_counter(total, "train_steps", static_cast<double>(t.train_steps));
  add_counter(total, "epochs", static_cast<double>(t.epochs.size()));
  // Where the whole run's time went (seconds; they add up to real_time).
  add_counter(total, "load_seconds", t.load_seconds);
  add_counter(total, "setup_seconds", t.setup_seconds);
  add_counter(total, "capture_seconds", t.capture_seconds);
  add_counter(total, "train_seconds", t.train_seconds);
  add_counter(total, "test_seconds", t.test_seconds);
  add_counter(total, "other_seconds", t.other_seconds);
  add_counter(total, "median_step_us", t.median_step_us);
  if (!t.epochs.empty()) add_counter(total, "final_test_accuracy", t.epochs.back().test_accuracy);
  add_counter(total, "speedup_vs_eager", r.speedup_vs_eager);
  benchmarks.push_back(std::move(total));
}

}  // namespace

json to_gbench_json(const RunReport& report) {
  json benchmarks = json::array();
  std::map<std::string, std::size_t> families;  // case -> family index, in report order
  std::map<std::string, std::size_t> instances;
  for (const ResultRecord& r : report.records) {
    const auto [it, inserted] = families.emplace(r.case_name, families.size());
    add_record(benchmarks, r, it->second, instances[r.case_name]++);
  }
  return {{"context", context_json(report)}, {"benchmarks", std::move(benchmarks)}};
}

}  // namespace graphbench
