// results.csv (see writers.h and docs/results.md).
#include "graphbench/core/report/writers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <vector>

namespace graphbench {

namespace {

// RFC 4180: quote a field holding a comma, a quote or a line break; double the quotes inside.
std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

// The shortest decimal form that reads back as the same double ("7.85", "1e+20", "3").
template <class T>
std::string csv_number(std::optional<T> value) {
  return value ? fmt::format("{}", *value) : std::string();
}

std::vector<std::string> csv_row(const ResultRecord& r) {
  const auto& s = r.stats;
  const auto stat = [&](double stats::Summary::*field) -> std::optional<double> {
    if (!s) return std::nullopt;
    return (*s).*field;
  };
  const std::optional<GpuConditions>& g = r.gpu_conditions;
  std::optional<double> final_accuracy;
  if (r.training && !r.training->epochs.empty()) {
    final_accuracy = r.training->epochs.back().test_accuracy;
  }
  return {
      csv_text(r.case_name),
      csv_text(r.workload),
      csv_text(r.variant),
      csv_text(to_string(r.method)),
      csv_text(to_string(r.kind)),
      csv_text(to_string(r.mode)),
      csv_text(r.dtype),
      csv_text(r.device),
      to_string(r.status),
      csv_text(r.reason),
      csv_number(s ? std::optional<std::int64_t>(static_cast<std::int64_t>(s->count))
                  : std::nullopt),
      csv_number(r.steps_per_sample > 0 ? std::optional<std::int64_t>(r.steps_per_sample)
                                       : std::nullopt),
      csv_number(stat(&stats::Summary::median)),
      csv_number(stat(&stats::Summary::iqr)),
      csv_number(stat(&stats::Summary::min)),
      csv_number(stat(&stats::Summary::max)),
      csv_number(stat(&stats::Summary::cv)),
      csv_number(r.host_stats ? std::optional<double>(r.host_stats->median) : std::nullopt),
      csv_number(r.speedup_vs_eager),
      csv_number(r.speedup_ci95 ? std::optional<double>(r.speedup_ci95->low) : std::nullopt),
      csv_number(r.speedup_ci95 ? std::optional<double>(r.speedup_ci95->high) : std::nullopt),
      csv_number(r.capture_ms),
      csv_number(r.roofline ? std::optional<double>(r.roofline->achieved_gbps) : std::nullopt),
      csv_number(r.roofline ? std::optional<double>(r.roofline->bandwidth_share) : std::nullopt),
      csv_number(r.published ? r.published->speedup : std::nullopt),
      csv_number(r.training ? std::optional<double>(r.training->total_seconds) : std::nullopt),
      csv_number(final_accuracy),
      csv_number(r.issue_median_us),
      r.host_bound ? (*r.host_bound ? "true" : "false") : "",
      csv_number(r.profile ? std::optional<double>(r.profile->kernels_per_step) : std::nullopt),
      csv_number(r.profile ? std::optional<double>(r.profile->busy_us_per_step) : std::nullopt),
      csv_number(r.profile ? r.profile->busy_share : std::nullopt),
      csv_number(r.memory ? std::optional<std::int64_t>(r.memory->peak_allocated_bytes) : std::nullopt),
      csv_number(r.memory ? std::optional<std::int64_t>(r.memory->peak_reserved_bytes) : std::nullopt),
      csv_number(r.memory ? r.memory->graph_pool_bytes : std::nullopt),
      r.l2 ? to_string(*r.l2) : "",
      csv_number(r.back_to_back_us),
      csv_text(r.sweep ? r.sweep->group : ""),
      csv_text(r.sweep ? r.sweep->axis : ""),
      csv_number(r.sweep ? std::optional<std::int64_t>(r.sweep->value) : std::nullopt),
      csv_number(r.warmup_ms),
      csv_number(r.break_even_replays),
      csv_number(r.break_even_s),
      csv_number(r.sm_clock_start_mhz),
      csv_number(r.sm_clock_end_mhz),
      csv_number(g ? g->sm_clock_mean_mhz : std::nullopt),
      csv_number(g ? g->sm_clock_reference_mhz : std::nullopt),
      csv_number(g ? g->memory_clock_mhz.start : std::nullopt),
      csv_number(g ? g->memory_clock_mhz.end : std::nullopt),
      csv_number(g ? g->temperature_c.start : std::nullopt),
      csv_number(g ? g->temperature_c.end : std::nullopt),
      csv_number(g ? g->power_w.start : std::nullopt),
      csv_number(g ? g->power_w.end : std::nullopt),
      csv_text(g && g->throttle_reasons ? fmt::format("{}", fmt::join(*g->throttle_reasons, "; ")) : ""),
      csv_number(r.energy ? r.energy->joules_per_step : std::nullopt),
      csv_number(r.energy ? r.energy->vs_eager : std::nullopt),
      csv_text(r.energy ? r.energy->unavailable : ""),
      csv_text(r.scope),
      csv_number(r.graphs_per_step),
      csv_number(r.launches_per_step),
  };
}

void append_line(std::string& out, const std::vector<std::string>& fields) {
  out += fmt::format("{}\n", fmt::join(fields, ","));
}

}  // namespace

const char* csv_header() {
  return "case,workload,variant,method,kind,mode,dtype,device,status,reason,samples,steps_per_sample,"
         "median_us,iqr_us,min_us,max_us,cv,host_median_us,speedup_vs_eager,speedup_ci_low,"
         "speedup_ci_high,capture_ms,achieved_gbps,bandwidth_share,published_speedup,"
         "total_seconds,final_accuracy,issue_median_us,host_bound,kernels_per_step,busy_us_per_step,"
         "busy_share,peak_allocated_bytes,peak_reserved_bytes,graph_pool_bytes,l2,back_to_back_us,"
         "sweep_case,sweep_axis,sweep_value,warmup_ms,break_even_replays,break_even_s,sm_clock_start_mhz,"
         "sm_clock_end_mhz,sm_clock_mean_mhz,sm_clock_reference_mhz,memory_clock_start_mhz,memory_clock_end_mhz,"
         "temperature_start_c,temperature_end_c,power_start_w,power_end_w,throttle_reasons,energy_per_step_j,"
         "energy_vs_eager,energy_unavailable,scope,graphs_per_step,launches_per_step";
}

std::string render_csv(const RunReport& report) {
  std::string out = csv_header();
  out += '\n';
  for (const auto& record : report.records) append_line(out, csv_row(record));
  return out;
}

}  // namespace graphbench
