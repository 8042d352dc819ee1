// results.gbench.json (see gbench_writer.h).
#include "graphbench/report/gbench_writer.h"

#include "graphbench/stats/statistics.h"

#include <fmt/format.h>

#include <cctype>
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

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

template <typename T>
json value_or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json context_json(const RunReport& report) {
  const Environment& e = report.environment;
  const std::string build = lower(e.build_type);
  return {{"date", gbench_date(e.date_utc)},
          {"host_name", e.host},
          {"executable", first_word(e.command_line)},
          {"num_cpus", value_or_null(e.cpu_count)},
          {"mhz_per_cpu", e.cpu_mhz ? json(static_cast<std::int64_t>(std::llround(*e.cpu_mhz))) : json(nullptr)},
          {"cpu_scaling_enabled", value_or_null(e.cpu_scaling_enabled)},
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

std::optional<double> median_of(const std::vector<double>& samples) {
  if (samples.empty()) return std::nullopt;
  return stats::percentile(samples, 50.0);
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
  for (const auto& [name, value] : r.counters) add_counter(entry, name, static_cast<double>(value));
}

void add_record(json& benchmarks, const ResultRecord& r, std::size_t family, std::size_t instance) {
  const std::string name = r.case_name + "/" + r.variant;
  json entry = base_entry(name, family, instance);
  entry["label"] = fmt::format("{} {} {} {} {}{}", r.workload, r.kind, r.mode, r.dtype, r.device,
                               r.method.empty() ? "" : " " + r.method);
  if (r.status != RecordStatus::kOk) {
    benchmarks.push_back(error_entry(std::move(entry), r));
    return;
  }
  // The samples' medians; a record read back without its samples has its summaries.
  std::optional<double> device = median_of(r.samples_us);
  if (!device && r.stats) device = r.stats->median;
  if (!device && r.training) device = r.training->median_step_us;
  const double real_time = device.value_or(0.0);
  std::optional<double> host = median_of(r.host_samples_us);
  if (!host && r.host_stats) host = r.host_stats->median;
  const double cpu_time = host.value_or(real_time);
  const std::size_t samples = !r.samples_us.empty() ? r.samples_us.size() : r.stats ? r.stats->count : 0;
  std::int64_t iterations = static_cast<std::int64_t>(samples) * std::max<std::int64_t>(r.steps_per_sample, 1);
  if (r.training) iterations = r.training->train_steps;
  set_times(entry, iterations, real_time, cpu_time, "us");
  add_timing_counters(entry, r);
  if (!r.training) {
    benchmarks.push_back(std::move(entry));
    return;
  }
  const TrainingSummary& t = *r.training;
  add_counter(entry, "epochs", static_cast<double>(t.epochs.size()));
  if (!t.epochs.empty()) add_counter(entry, "final_test_accuracy", t.epochs.back().test_accuracy);
  benchmarks.push_back(entry);

  json total = base_entry(name + "/total_time", family, instance);
  total["label"] = entry["label"];
  set_times(total, 1, t.total_seconds, t.total_seconds, "s");
  add_counter(total, "train_steps", static_cast<double>(t.train_steps));
  // Where the whole run's time went (seconds; they add up to real_time).
  add_counter(total, "load_seconds", t.load_seconds);
  add_counter(total, "setup_seconds", t.setup_seconds);
  add_counter(total, "capture_seconds", t.capture_seconds);
  add_counter(total, "train_seconds", t.train_seconds);
  add_counter(total, "test_seconds", t.test_seconds);
  add_counter(total, "other_seconds", t.other_seconds);
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
