// results.json from a RunReport: every key written, absent optional values as null (json_io.h).
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/sweep_sections.h"

#include "graphbench/core/base/version.h"
#include "graphbench/core/report/json_or_null.h"
#include "graphbench/core/report/record_fields.h"
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

// A field's value as the writer stores it: absent optional values and non-finite numbers as null.
json field_json(const std::string& v) { return v; }
json field_json(double v) { return number_or_null(v); }
json field_json(std::int64_t v) { return v; }
json field_json(int v) { return v; }
json field_json(bool v) { return v; }
json field_json(const std::vector<double>& v) { return numbers_to_json(v); }
json field_json(const std::optional<double>& v) { return optional_number(v); }
json field_json(const std::optional<stats::Interval>& v) { return interval_or_null(v); }
json field_json(const StartEnd& v) {
  return v.any() ? json{{"start", optional_number(v.start)}, {"end", optional_number(v.end)}} : json(nullptr);
}
template <class T>
json field_json(const std::optional<T>& v) { return json_or_null(v); }

// The object of the fields a list (record_fields.h) names, beside `out`'s own keys.
template <class S, class List>
json fields_json(const S& s, List list, json out = json::object()) {
  list(s, [&](const char* key, const auto& value) { out[key] = field_json(value); });
  return out;
}

void write_summary(json& r, const std::optional<stats::Summary>& s) {
  const stats::Summary summary = s.value_or(stats::Summary{});
  summary_fields(summary, [&](const char* key, double v) { r[key] = s ? number_or_null(v) : json(nullptr); });
}

json training_to_json(const TrainingSummary& t) {
  json epochs = json::array();
  for (const TrainingEpoch& e : t.epochs) epochs.push_back(fields_json(e, training_epoch_fields));
  return fields_json(t, training_fields,
                     {{"epochs", std::move(epochs)}, {"median_step_us", positive_or_null(t.median_step_us)}});
}

json chunked_gradients_to_json(const std::vector<GradientChunks>& chunked) {
  json out = json::array();
  for (const GradientChunks& c : chunked) out.push_back({{"param", c.param}, {"rows", c.rows}});
  return out;
}

json data_parallel_to_json(const DataParallelFigures& d) {
  return fields_json(d, data_parallel_fields,
                     {{"world_size", d.world_size},
                      {"backend_settings", d.backend_settings ? json(*d.backend_settings) : json(nullptr)},
                      {"chunked_gradients", chunked_gradients_to_json(d.chunked_gradients)},
                      {"ranks_per_node", d.ranks_per_node},
                      {"params_identical", d.params_identical}});
}

json profile_to_json(const KernelProfile& p) {
  json kernels = json::array();
  for (const KernelStat& k : p.kernels) kernels.push_back(fields_json(k, kernel_fields));
  const json idle = p.busy_share ? number_or_null(std::max(0.0, 1.0 - *p.busy_share)) : json(nullptr);
  const json concurrency = p.summed_us_per_step && p.busy_us_per_step > 0.0
                               ? number_or_null(*p.summed_us_per_step / p.busy_us_per_step)
                               : json(nullptr);
  return fields_json(p, profile_fields,
                     {{"concurrency", concurrency}, {"idle_share", idle}, {"kernels", std::move(kernels)}});
}

json gpu_conditions_to_json(const GpuConditions& c) {
  return fields_json(c, gpu_conditions_fields,
                     {{"throttle_reasons", c.throttle_reasons ? json(*c.throttle_reasons) : json(nullptr)}});
}

json energy_to_json(const EnergyPerStep& e) {
  return fields_json(e, energy_fields, {{"seconds", number_or_null(e.seconds)},
                                        {"unavailable", e.unavailable.empty() ? json(nullptr) : json(e.unavailable)}});
}

json repetitions_to_json(const Repetitions& reps) {
  json runs = json::array();
  for (const RepetitionFigures& f : reps.runs) runs.push_back(fields_json(f, repetition_fields));
  return fields_json(reps, repetitions_fields, {{"requested", reps.requested}, {"runs", runs}});
}

json record_to_json(const ResultRecord& rec) {
  json r = fields_json(rec, record_fields);
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
  write_summary(r, rec.stats);
  r["host_median_us"] = rec.host_stats ? number_or_null(rec.host_stats->median) : json(nullptr);
  r["l2"] = rec.l2 ? json(to_string(*rec.l2)) : json(nullptr);
  r["rel_noise"] = rec.stats ? number_or_null(rec.rel_noise) : json(nullptr);
  r["validation_note"] = rec.validation_note.empty() ? json(nullptr) : json(rec.validation_note);
  r["sm_clock_mhz"] = field_json(StartEnd{rec.sm_clock_start_mhz, rec.sm_clock_end_mhz});
  r["gpu_conditions"] = rec.gpu_conditions ? gpu_conditions_to_json(*rec.gpu_conditions) : json(nullptr);
  r["energy"] = rec.energy ? energy_to_json(*rec.energy) : json(nullptr);
  r["roofline"] = rec.roofline ? fields_json(*rec.roofline, roofline_fields) : json(nullptr);
  r["profile"] = rec.profile ? profile_to_json(*rec.profile) : json(nullptr);
  r["graphs"] = json::array();
  for (const GraphFacts& g : rec.graphs) r["graphs"].push_back(fields_json(g, graph_fields));
  // Only for variants that captured (graphs) and where a kernel profile counted the launches.
  if (rec.graphs_per_step) r["graphs_per_step"] = *rec.graphs_per_step;
  if (rec.launches_per_step) r["launches_per_step"] = number_or_null(*rec.launches_per_step);
  r["memory"] = rec.memory ? fields_json(*rec.memory, memory_fields, {{"step_peak_bytes", rec.memory->step_peak_bytes}})
                           : json(nullptr);
  r["counters"] = json::object();
  for (const auto& [name, value] : rec.counters) r["counters"][name] = value;
  r["warnings"] = rec.warnings;
  r["published"] = rec.published ? fields_json(*rec.published, published_fields) : json(nullptr);
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
  out["environment"] = fields_json(report.environment, environment_fields);
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
