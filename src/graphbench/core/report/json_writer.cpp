// results.json from a RunReport: every key written, absent optional values as null (json_io.h).
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/scope_sections.h"
#include "graphbench/core/report/sweep_sections.h"

#include "graphbench/core/base/version.h"
#include "graphbench/core/report/json_or_null.h"
#include "graphbench/core/workload/variant.h"

namespace graphbench {

using nlohmann::json;

namespace {

// A positive figure, or null when it is 0 (nothing measured).
json positive_or_null(double value) { return value > 0.0 ? number_or_null(value) : json(nullptr); }

json numbers_to_json(const std::vector<double>& values) {
  json out = json::array();
  for (double v : values) out.push_back(number_or_null(v));
  return out;
}

json environment_to_json(const Environment& e) {
  return {{"date_utc", e.date_utc},
          {"host", e.host},
          {"os", e.os},
          {"git_commit", e.git_commit},
          {"build_type", e.build_type},
          {"compiler", e.compiler},
          {"libtorch_version", e.libtorch_version},
          {"device", e.device},
          {"gpu_name", e.gpu_name},
          {"driver_version", e.driver_version},
          {"cuda_runtime_version", e.cuda_runtime_version},
          {"cudnn_version", e.cudnn_version},
          {"sm_count", json_or_null(e.sm_count)},
          {"gpu_memory_gib", optional_number(e.gpu_memory_gib)},
          {"sm_clock_max_mhz", optional_number(e.sm_clock_max_mhz)},
          {"copy_bandwidth_gbps", optional_number(e.copy_bandwidth_gbps)},
          {"cpu_count", json_or_null(e.cpu_count)},
          {"cpu_mhz", optional_number(e.cpu_mhz)},
          {"cpu_scaling_enabled", json_or_null(e.cpu_scaling_enabled)},
          {"load_avg", numbers_to_json(e.load_avg)},
          {"command_line", e.command_line},
          {"suite", e.suite},
          {"config_path", e.config_path}};
}

void write_summary(json& r, const std::optional<stats::Summary>& s) {
  auto field = [&](double stats::Summary::*member) {
    return s ? number_or_null((*s).*member) : json(nullptr);
  };
  r["median_us"] = field(&stats::Summary::median);
  r["iqr_us"] = field(&stats::Summary::iqr);
  r["min_us"] = field(&stats::Summary::min);
  r["max_us"] = field(&stats::Summary::max);
  r["mean_us"] = field(&stats::Summary::mean);
  r["stddev_us"] = field(&stats::Summary::stddev);
  r["cv"] = field(&stats::Summary::cv);
  r["q1_us"] = field(&stats::Summary::q1);
  r["q3_us"] = field(&stats::Summary::q3);
}

json training_to_json(const TrainingSummary& t) {
  json epochs = json::array();
  for (const TrainingEpoch& e : t.epochs) {
    epochs.push_back({{"epoch", e.epoch},
                      {"train_seconds", number_or_null(e.train_seconds)},
                      {"test_seconds", number_or_null(e.test_seconds)},
                      {"logged_samples", e.logged_samples},
                      {"dataset_size", e.dataset_size},
                      {"logged_loss", number_or_null(e.logged_loss)},
                      {"test_loss", number_or_null(e.test_loss)},
                      {"test_accuracy", number_or_null(e.test_accuracy)}});
  }
  return {{"epochs", std::move(epochs)},
          {"total_seconds", number_or_null(t.total_seconds)},
          {"median_step_us", positive_or_null(t.median_step_us)},
          {"train_steps", t.train_steps},
          {"skipped_batches", t.skipped_batches},
          {"train_executor", t.train_executor},
          {"test_executor", t.test_executor},
          {"load_seconds", number_or_null(t.load_seconds)},
          {"setup_seconds", number_or_null(t.setup_seconds)},
          {"capture_seconds", number_or_null(t.capture_seconds)},
          {"train_seconds", number_or_null(t.train_seconds)},
          {"test_seconds", number_or_null(t.test_seconds)},
          {"other_seconds", number_or_null(t.other_seconds)},
          {"decode_seconds", number_or_null(t.decode_seconds)},
          {"context_seconds", number_or_null(t.context_seconds)},
          {"graph_capture_seconds", number_or_null(t.graph_capture_seconds)},
          {"first_calls_seconds", number_or_null(t.first_calls_seconds)},
          {"data_placement", t.data_placement},
          {"batch_order", t.batch_order}};
}

json chunked_gradients_to_json(const std::vector<GradientChunks>& chunked) {
  json out = json::array();
  for (const GradientChunks& c : chunked) out.push_back({{"param", c.param}, {"rows", c.rows}});
  return out;
}

json data_parallel_to_json(const DataParallelFigures& d) {
  return {{"world_size", d.world_size},
          {"backend", d.backend},
          {"backend_version", d.backend_version},
          {"backend_settings", d.backend_settings ? json(*d.backend_settings) : json(nullptr)},
          {"samples_per_rank", d.samples_per_rank},
          {"global_batch", d.global_batch},
          {"rank_median_us", numbers_to_json(d.rank_median_us)},
          {"median_us", number_or_null(d.median_us)},
          {"slowest_rank", d.slowest_rank},
          {"slowest_median_us", number_or_null(d.slowest_median_us)},
          {"samples_per_second", number_or_null(d.samples_per_second)},
          {"gradient_bytes", d.gradient_bytes},
          {"buckets", d.buckets},
          {"grad_dtype", d.grad_dtype},
          {"bucket_cap_bytes", d.bucket_cap_bytes},
          {"overlapped", d.overlapped},
          {"chunk_cap_bytes", d.chunk_cap_bytes},
          {"chunked_gradients", chunked_gradients_to_json(d.chunked_gradients)},
          {"grad_transport", d.grad_transport},
          {"nodes", d.nodes},
          {"hosts", d.hosts},
          {"ranks_per_node", d.ranks_per_node},
          {"transport", d.transport},
          {"transport_basis", d.transport_basis},
          {"all_reduce_us", optional_number(d.all_reduce_us)},
          {"no_all_reduce_us", optional_number(d.no_all_reduce_us)},
          {"exposed_all_reduce_us", optional_number(d.exposed_all_reduce_us)},
          {"one_rank_us", optional_number(d.one_rank_us)},
          {"scaling_efficiency", optional_number(d.scaling_efficiency)},
          {"scaling_efficiency_ci95", interval_or_null(d.scaling_ci95)},
          {"params_identical", d.params_identical},
          {"max_error_vs_one_process", optional_number(d.max_error_vs_one_process)}};
}

json profile_to_json(const KernelProfile& p) {
  json kernels = json::array();
  for (const KernelStat& k : p.kernels) {
    kernels.push_back({{"name", k.name}, {"per_step", number_or_null(k.per_step)},
                       {"us_per_step", number_or_null(k.us_per_step)}});
  }
  const json idle = p.busy_share ? number_or_null(std::max(0.0, 1.0 - *p.busy_share)) : json(nullptr);
  return {{"steps", p.steps},
          {"kernels_per_step", number_or_null(p.kernels_per_step)},
          {"copies_per_step", number_or_null(p.copies_per_step)},
          {"busy_us_per_step", number_or_null(p.busy_us_per_step)},
          {"summed_us_per_step", optional_number(p.summed_us_per_step)},
          {"concurrency", p.summed_us_per_step && p.busy_us_per_step > 0.0
                              ? number_or_null(*p.summed_us_per_step / p.busy_us_per_step)
                              : json(nullptr)},
          {"busy_share", optional_number(p.busy_share)},
          {"idle_share", idle},
          {"kernels", std::move(kernels)}};
}

json graphs_to_json(const std::vector<GraphFacts>& graphs) {
  json out = json::array();
  for (const GraphFacts& g : graphs) {
    out.push_back({{"kernel_nodes", json_or_null(g.kernel_nodes)},
                   {"nodes", json_or_null(g.nodes)},
                   {"pool_reserved_bytes", json_or_null(g.pool_reserved_bytes)},
                   {"pool_allocated_bytes", json_or_null(g.pool_allocated_bytes)}});
  }
  return out;
}

json memory_to_json(const MemoryUse& m) {
  return {{"peak_allocated_bytes", m.peak_allocated_bytes},
          {"peak_reserved_bytes", m.peak_reserved_bytes},
          {"step_peak_bytes", m.step_peak_bytes},
          {"graph_pool_bytes", json_or_null(m.graph_pool_bytes)}};
}

json start_end_to_json(const StartEnd& v) {
  return v.any() ? json{{"start", optional_number(v.start)}, {"end", optional_number(v.end)}} : json(nullptr);
}

json gpu_conditions_to_json(const GpuConditions& c) {
  return {{"memory_clock_mhz", start_end_to_json(c.memory_clock_mhz)},
          {"temperature_c", start_end_to_json(c.temperature_c)},
          {"power_w", start_end_to_json(c.power_w)},
          {"sm_clock_mean_mhz", optional_number(c.sm_clock_mean_mhz)},
          {"sm_clock_reference_mhz", optional_number(c.sm_clock_reference_mhz)},
          {"throttle_reasons", c.throttle_reasons ? json(*c.throttle_reasons) : json(nullptr)}};
}

json energy_to_json(const EnergyPerStep& e) {
  return {{"joules_per_step", optional_number(e.joules_per_step)},
          {"vs_eager", optional_number(e.vs_eager)},
          {"joules", optional_number(e.joules)},
          {"steps", e.steps},
          {"seconds", number_or_null(e.seconds)},
          {"update_interval_ms", optional_number(e.update_interval_ms)},
          {"unavailable", e.unavailable.empty() ? json(nullptr) : json(e.unavailable)}};
}

json repetitions_to_json(const Repetitions& reps) {
  json runs = json::array();
  for (const RepetitionFigures& f : reps.runs) {
    runs.push_back({{"status", f.status},
                    {"reason", f.reason},
                    {"samples", f.samples},
                    {"median_us", optional_number(f.median_us)},
                    {"median_ci95", interval_or_null(f.median_ci95)},
                    {"speedup_vs_eager", optional_number(f.speedup_vs_eager)},
                    {"speedup_ci95", interval_or_null(f.speedup_ci95)}});
  }
  return {{"requested", reps.requested},
          {"succeeded", reps.succeeded},
          {"median_ci95", interval_or_null(reps.median_ci95)},
          {"round_sd", optional_number(reps.round_sd)},
          {"process_sd", optional_number(reps.process_sd)},
          {"optimal_rounds", optional_number(reps.optimal_rounds)},
          {"runs", runs}};
}

json record_to_json(const ResultRecord& rec) {
  json r;
  r["case"] = rec.case_name;
  r["workload"] = rec.workload;
  r["variant"] = rec.variant;
  r["method"] = to_string(rec.method);
  r["kind"] = to_string(rec.kind);
  r["mode"] = to_string(rec.mode);
  r["dtype"] = rec.dtype;
  r["device"] = rec.device;
  r["params"] = rec.params;
  r["sweep"] = rec.sweep ? json{{"group", rec.sweep->group}, {"axis", rec.sweep->axis}, {"value", rec.sweep->value}}
                         : json(nullptr);
  // Only where a case set a scope other than the whole step (files of other runs are unchanged).
  if (rec.scope != "full") r["scope"] = rec.scope;
  if (!rec.scope_group.empty()) r["scope_group"] = rec.scope_group;
  r["status"] = to_string(rec.status);
  r["reason"] = rec.reason;
  r["steps_per_sample"] = rec.steps_per_sample > 0 ? json(rec.steps_per_sample) : json(nullptr);
  r["samples_us"] = numbers_to_json(rec.samples_us);
  r["host_samples_us"] = numbers_to_json(rec.host_samples_us);
  r["issue_samples_us"] = numbers_to_json(rec.issue_samples_us);
  write_summary(r, rec.stats);
  r["host_median_us"] = rec.host_stats ? number_or_null(rec.host_stats->median) : json(nullptr);
  r["issue_median_us"] = optional_number(rec.issue_median_us);
  r["host_bound"] = rec.host_bound ? json(*rec.host_bound) : json(nullptr);
  r["back_to_back_us"] = optional_number(rec.back_to_back_us);
  r["l2"] = rec.l2 ? json(to_string(*rec.l2)) : json(nullptr);
  r["rel_noise"] = rec.stats ? number_or_null(rec.rel_noise) : json(nullptr);
  r["stop_reason"] = rec.stop_reason;
  r["min_samples"] = rec.min_samples ? json(*rec.min_samples) : json(nullptr);
  r["speedup_vs_eager"] = optional_number(rec.speedup_vs_eager);
  r["speedup_ci95"] = interval_or_null(rec.speedup_ci95);
  r["capture_ms"] = optional_number(rec.capture_ms);
  r["warmup_ms"] = optional_number(rec.warmup_ms);
  r["break_even_replays"] = json_or_null(rec.break_even_replays);
  r["break_even_s"] = optional_number(rec.break_even_s);
  r["max_abs_error"] = optional_number(rec.max_abs_error);
  r["validation_note"] = rec.validation_note.empty() ? json(nullptr) : json(rec.validation_note);
  r["sm_clock_mhz"] = start_end_to_json({rec.sm_clock_start_mhz, rec.sm_clock_end_mhz});
  r["gpu_conditions"] = rec.gpu_conditions ? gpu_conditions_to_json(*rec.gpu_conditions) : json(nullptr);
  r["energy"] = rec.energy ? energy_to_json(*rec.energy) : json(nullptr);
  r["roofline"] = nullptr;
  if (rec.roofline) {
    const Roofline& f = *rec.roofline;
    r["roofline"] = {{"bytes", number_or_null(f.bytes)},
                     {"flops", number_or_null(f.flops)},
                     {"achieved_gbps", number_or_null(f.achieved_gbps)},
                     {"bandwidth_share", optional_number(f.bandwidth_share)},
                     {"achieved_tflops", number_or_null(f.achieved_tflops)}};
  }
  r["profile"] = rec.profile ? profile_to_json(*rec.profile) : json(nullptr);
  r["graphs"] = graphs_to_json(rec.graphs);
  // Only for variants that captured (graphs) and where a kernel profile counted the launches.
  if (rec.graphs_per_step) r["graphs_per_step"] = *rec.graphs_per_step;
  if (rec.launches_per_step) r["launches_per_step"] = number_or_null(*rec.launches_per_step);
  r["memory"] = rec.memory ? memory_to_json(*rec.memory) : json(nullptr);
  r["counters"] = json::object();
  for (const auto& [name, value] : rec.counters) r["counters"][name] = value;
  r["warnings"] = rec.warnings;
  r["published"] = nullptr;
  if (rec.published) {
    const PublishedComparison& p = *rec.published;
    r["published"] = {{"speedup", optional_number(p.speedup)},
                      {"eager_us", optional_number(p.eager_us)},
                      {"variant_us", optional_number(p.variant_us)},
                      {"source", p.source},
                      {"device", p.device}};
  }
  r["training"] = rec.training ? training_to_json(*rec.training) : json(nullptr);
  // Only in records of data-parallel runs (files of other runs are unchanged).
  if (rec.data_parallel) r["data_parallel"] = data_parallel_to_json(*rec.data_parallel);
  // Only in records merged from --repetitions N.
  if (rec.repetitions) r["repetitions"] = repetitions_to_json(*rec.repetitions);
  return r;
}

}  // namespace

json to_json(const RunReport& report) {
  json out;
  out["schema_version"] = kResultsSchemaVersion;
  out["tool"] = "graphbench";
  out["tool_version"] = report.environment.tool_version;
  out["environment"] = environment_to_json(report.environment);
  out["interrupted"] = report.interrupted;
  out["interrupted_by"] = report.interrupted ? json(report.interrupted_by) : json(nullptr);
  out["records"] = json::array();
  for (const ResultRecord& rec : report.records) out["records"].push_back(record_to_json(rec));
  out["sweeps"] = sweeps_to_json(report);
  // Only where a case ran with several capture scopes (files of other runs are unchanged).
  if (json scopes = scopes_to_json(report); !scopes.empty()) out["scopes"] = std::move(scopes);
  return out;
}

}  // namespace graphbench
