// results.json <-> RunReport: the writer, the checked reader and the file entry point.
#include "graphbench/report/json_io.h"

#include "graphbench/core/errors.h"
#include "graphbench/core/version.h"
#include "graphbench/json/json_text.h"
#include "graphbench/workload/variant.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace graphbench {

using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------
namespace {

json number_or_null(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json optional_number(const std::optional<double>& value) {
  return value ? number_or_null(*value) : json(nullptr);
}

template <typename T>
json optional_value(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

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
          {"sm_count", optional_value(e.sm_count)},
          {"gpu_memory_gib", optional_number(e.gpu_memory_gib)},
          {"sm_clock_max_mhz", optional_number(e.sm_clock_max_mhz)},
          {"copy_bandwidth_gbps", optional_number(e.copy_bandwidth_gbps)},
          {"cpu_count", optional_value(e.cpu_count)},
          {"cpu_mhz", optional_number(e.cpu_mhz)},
          {"cpu_scaling_enabled", optional_value(e.cpu_scaling_enabled)},
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

json data_parallel_to_json(const DataParallelFigures& d) {
  return {{"world_size", d.world_size},
          {"backend", d.backend},
          {"samples_per_rank", d.samples_per_rank},
          {"global_batch", d.global_batch},
          {"rank_median_us", numbers_to_json(d.rank_median_us)},
          {"median_us", number_or_null(d.median_us)},
          {"slowest_rank", d.slowest_rank},
          {"slowest_median_us", number_or_null(d.slowest_median_us)},
          {"samples_per_second", number_or_null(d.samples_per_second)},
          {"gradient_bytes", d.gradient_bytes},
          {"buckets", d.buckets},
          {"all_reduce_us", optional_number(d.all_reduce_us)},
          {"one_rank_us", optional_number(d.one_rank_us)},
          {"scaling_efficiency", optional_number(d.scaling_efficiency)},
          {"params_identical", d.params_identical},
          {"max_error_vs_one_process", optional_number(d.max_error_vs_one_process)}};
}

json optional_integer(const std::optional<std::int64_t>& value) { return value ? json(*value) : json(nullptr); }

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
          {"busy_share", optional_number(p.busy_share)},
          {"idle_share", idle},
          {"kernels", std::move(kernels)}};
}

json graphs_to_json(const std::vector<GraphFacts>& graphs) {
  json out = json::array();
  for (const GraphFacts& g : graphs) {
    out.push_back({{"kernel_nodes", optional_integer(g.kernel_nodes)},
                   {"nodes", optional_integer(g.nodes)},
                   {"pool_reserved_bytes", optional_integer(g.pool_reserved_bytes)},
                   {"pool_allocated_bytes", optional_integer(g.pool_allocated_bytes)}});
  }
  return out;
}

json memory_to_json(const MemoryUse& m) {
  return {{"peak_allocated_bytes", m.peak_allocated_bytes},
          {"peak_reserved_bytes", m.peak_reserved_bytes},
          {"step_peak_bytes", m.step_peak_bytes},
          {"graph_pool_bytes", optional_integer(m.graph_pool_bytes)}};
}

json record_to_json(const ResultRecord& rec) {
  json r;
  r["case"] = rec.case_name;
  r["workload"] = rec.workload;
  r["variant"] = rec.variant;
  r["method"] = rec.method;
  r["kind"] = rec.kind;
  r["mode"] = rec.mode;
  r["dtype"] = rec.dtype;
  r["device"] = rec.device;
  r["params"] = rec.params;
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
  r["l2"] = rec.l2 ? json(*rec.l2) : json(nullptr);
  r["rel_noise"] = rec.stats ? number_or_null(rec.rel_noise) : json(nullptr);
  r["stop_reason"] = rec.stop_reason;
  r["speedup_vs_eager"] = optional_number(rec.speedup_vs_eager);
  r["speedup_ci95"] = rec.speedup_ci95 ? json::array({number_or_null(rec.speedup_ci95->low),
                                                      number_or_null(rec.speedup_ci95->high)})
                                       : json(nullptr);
  r["capture_ms"] = optional_number(rec.capture_ms);
  r["max_abs_error"] = optional_number(rec.max_abs_error);
  r["sm_clock_mhz"] = rec.sm_clock_start_mhz || rec.sm_clock_end_mhz
                          ? json{{"start", optional_number(rec.sm_clock_start_mhz)},
                                 {"end", optional_number(rec.sm_clock_end_mhz)}}
                          : json(nullptr);
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
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------
namespace {

// Typed access to the keys of one JSON object; every error names the file and the JSON pointer.
class ObjectReader {
 public:
  ObjectReader(const std::string& file, const json& value, std::string pointer)
      : file_(file), value_(value), pointer_(std::move(pointer)) {
    if (!value_.is_object()) fail_expected(pointer_, "an object", value_);
  }

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    if (pointer.empty()) throw InputError(fmt::format("{}: {}", file_, message));
    throw InputError(fmt::format("{}: {}: {}", file_, pointer, message));
  }
  [[noreturn]] void fail_expected(const std::string& pointer, const std::string& what,
                                  const json& got) const {
    fail(pointer, fmt::format("expected {}, got {}", what, json_for_message(got)));
  }

  const std::string& file() const { return file_; }
  std::string pointer(const std::string& key) const { return json_pointer_append(pointer_, key); }

  // The value of `key`, or nullptr when absent (InputError when absent and required).
  const json* find(const std::string& key, bool required = false) const {
    const auto it = value_.find(key);
    if (it != value_.end()) return &*it;
    if (required) fail(pointer_, fmt::format("missing required key \"{}\"", key));
    return nullptr;
  }
  // Present and not null.
  const json* find_value(const std::string& key) const {
    const json* v = find(key);
    return v && !v->is_null() ? v : nullptr;
  }
  ObjectReader object(const std::string& key) const { return {file_, *find(key), pointer(key)}; }

  std::string string(const std::string& key, bool required = false) const {
    const json* v = find(key, required);
    if (!v) return {};
    if (!v->is_string()) fail_expected(pointer(key), "a string", *v);
    return v->get<std::string>();
  }

  double number_at(const json& v, const std::string& pointer, const char* what) const {
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (!v.is_number()) fail_expected(pointer, what, v);
    return v.get<double>();
  }
  // A number; null reads as NaN (non-finite numbers are written as null).
  double number(const std::string& key) const {
    const json* v = find(key);
    return v ? number_at(*v, pointer(key), "a number") : 0.0;
  }
  std::optional<double> optional_number(const std::string& key) const {
    const json* v = find_value(key);
    if (!v) return std::nullopt;
    if (!v->is_number()) fail_expected(pointer(key), "a number or null", *v);
    return v->get<double>();
  }

  std::int64_t integer_at(const json& v, const std::string& pointer, std::int64_t min,
                          std::int64_t max, const std::string& what) const {
    const bool fits =
        v.is_number_unsigned()
            ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(max) &&
                  (min <= 0 || v.get<std::uint64_t>() >= static_cast<std::uint64_t>(min))
            : v.is_number_integer() && v.get<std::int64_t>() >= min && v.get<std::int64_t>() <= max;
    if (!fits) fail_expected(pointer, what, v);
    return v.get<std::int64_t>();
  }
  std::int64_t integer(const std::string& key, std::int64_t min = 0,
                       std::int64_t max = std::numeric_limits<std::int64_t>::max(),
                       const std::string& what = "a non-negative integer") const {
    const json* v = find(key);
    return v ? integer_at(*v, pointer(key), min, max, what) : 0;
  }
  // A non-negative integer (at most `max`), or nullopt when absent or null.
  std::optional<std::int64_t> optional_integer(const std::string& key,
                                               std::int64_t max = std::numeric_limits<std::int64_t>::max()) const {
    const json* v = find_value(key);
    if (!v) return std::nullopt;
    return integer_at(*v, pointer(key), 0, max, "a non-negative integer or null");
  }

  std::optional<bool> optional_bool(const std::string& key) const {
    const json* v = find_value(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) fail_expected(pointer(key), "true, false or null", *v);
    return v->get<bool>();
  }

  // One of `choices`, or nullopt when absent or null.
  std::optional<std::string> optional_choice(const std::string& key, const std::vector<std::string>& choices) const {
    const json* v = find_value(key);
    if (!v) return std::nullopt;
    for (const std::string& c : choices) {
      if (*v == c) return c;
    }
    std::string listed;
    for (const std::string& c : choices) listed += fmt::format("{}\"{}\"", listed.empty() ? "" : " or ", c);
    fail_expected(pointer(key), listed + " or null", *v);
  }

  std::vector<double> numbers(const std::string& key) const {
    std::vector<double> out;
    const json* v = find(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), "an array of numbers", *v);
    for (std::size_t i = 0; i < v->size(); ++i) {
      out.push_back(number_at((*v)[i], json_pointer_append(pointer(key), i), "a number"));
    }
    return out;
  }

  std::vector<std::string> strings(const std::string& key) const {
    std::vector<std::string> out;
    const json* v = find(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), "an array of strings", *v);
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string()) fail_expected(json_pointer_append(pointer(key), i), "a string", (*v)[i]);
      out.push_back((*v)[i].get<std::string>());
    }
    return out;
  }

 private:
  const std::string& file_;
  const json& value_;
  std::string pointer_;
};

Environment read_environment(const ObjectReader& root) {
  Environment e;
  e.tool_version = root.string("tool_version");
  if (!root.find("environment")) return e;
  const ObjectReader env = root.object("environment");
  e.date_utc = env.string("date_utc");
  e.host = env.string("host");
  e.os = env.string("os");
  e.git_commit = env.string("git_commit");
  e.build_type = env.string("build_type");
  e.compiler = env.string("compiler");
  e.libtorch_version = env.string("libtorch_version");
  e.device = env.string("device");
  e.gpu_name = env.string("gpu_name");
  e.driver_version = env.string("driver_version");
  e.cuda_runtime_version = env.string("cuda_runtime_version");
  e.cudnn_version = env.string("cudnn_version");
  if (const auto sm_count = env.optional_integer("sm_count", std::numeric_limits<int>::max())) {
    e.sm_count = static_cast<int>(*sm_count);
  }
  e.gpu_memory_gib = env.optional_number("gpu_memory_gib");
  e.sm_clock_max_mhz = env.optional_number("sm_clock_max_mhz");
  e.copy_bandwidth_gbps = env.optional_number("copy_bandwidth_gbps");
  if (const auto cpus = env.optional_integer("cpu_count", std::numeric_limits<int>::max())) {
    e.cpu_count = static_cast<int>(*cpus);
  }
  e.cpu_mhz = env.optional_number("cpu_mhz");
  e.cpu_scaling_enabled = env.optional_bool("cpu_scaling_enabled");
  e.load_avg = env.numbers("load_avg");
  e.command_line = env.string("command_line");
  e.suite = env.string("suite");
  e.config_path = env.string("config_path");
  return e;
}

RecordStatus read_status(const ObjectReader& r) {
  const json& v = *r.find("status", true);
  if (v == "ok") return RecordStatus::kOk;
  if (v == "skipped") return RecordStatus::kSkipped;
  if (v == "failed") return RecordStatus::kFailed;
  r.fail_expected(r.pointer("status"), "one of \"ok\", \"skipped\", \"failed\"", v);
}

void read_timing(const ObjectReader& r, ResultRecord& rec) {
  rec.steps_per_sample = r.optional_integer("steps_per_sample").value_or(0);
  rec.samples_us = r.numbers("samples_us");
  rec.host_samples_us = r.numbers("host_samples_us");
  rec.issue_samples_us = r.numbers("issue_samples_us");
  rec.issue_median_us = r.optional_number("issue_median_us");
  rec.host_bound = r.optional_bool("host_bound");
  rec.back_to_back_us = r.optional_number("back_to_back_us");
  rec.l2 = r.optional_choice("l2", {"hot", "cold"});
  if (r.optional_number("median_us")) {
    stats::Summary s;
    s.count = rec.samples_us.size();
    s.median = r.number("median_us");
    s.iqr = r.number("iqr_us");
    s.min = r.number("min_us");
    s.max = r.number("max_us");
    s.mean = r.number("mean_us");
    s.stddev = r.number("stddev_us");
    s.cv = r.number("cv");
    s.q1 = r.number("q1_us");
    s.q3 = r.number("q3_us");
    rec.stats = s;
  }
  if (const auto host_median = r.optional_number("host_median_us")) {
    stats::Summary s;
    if (!rec.host_samples_us.empty()) s = stats::summarize(rec.host_samples_us);
    s.median = *host_median;
    rec.host_stats = s;
  }
  const json* noise = r.find("rel_noise");
  // null: no interval yet (infinite noise) for a timed record; not timed at all otherwise.
  rec.rel_noise = !noise             ? 0.0
                  : noise->is_null() ? (rec.stats ? std::numeric_limits<double>::infinity() : 0.0)
                                     : r.number("rel_noise");
  rec.stop_reason = r.string("stop_reason");
  rec.speedup_vs_eager = r.optional_number("speedup_vs_eager");
  if (const json* ci = r.find_value("speedup_ci95")) {
    if (!ci->is_array() || ci->size() != 2 || !(*ci)[0].is_number() || !(*ci)[1].is_number()) {
      r.fail_expected(r.pointer("speedup_ci95"), "[low, high] (two numbers) or null", *ci);
    }
    rec.speedup_ci95 = stats::Interval{(*ci)[0].get<double>(), (*ci)[1].get<double>()};
  }
}

KernelProfile read_profile(const ObjectReader& p) {
  KernelProfile out;
  out.steps = static_cast<int>(p.integer("steps", 0, std::numeric_limits<int>::max()));
  out.kernels_per_step = p.number("kernels_per_step");
  out.copies_per_step = p.number("copies_per_step");
  out.busy_us_per_step = p.number("busy_us_per_step");
  out.busy_share = p.optional_number("busy_share");
  if (const json* kernels = p.find_value("kernels")) {
    if (!kernels->is_array()) p.fail_expected(p.pointer("kernels"), "an array of kernels", *kernels);
    for (std::size_t i = 0; i < kernels->size(); ++i) {
      const ObjectReader k(p.file(), (*kernels)[i], json_pointer_append(p.pointer("kernels"), i));
      out.kernels.push_back({k.string("name"), k.number("per_step"), k.number("us_per_step")});
    }
  }
  return out;
}

std::vector<GraphFacts> read_graphs(const ObjectReader& r) {
  std::vector<GraphFacts> out;
  const json* graphs = r.find_value("graphs");
  if (!graphs) return out;
  if (!graphs->is_array()) r.fail_expected(r.pointer("graphs"), "an array of graphs", *graphs);
  for (std::size_t i = 0; i < graphs->size(); ++i) {
    const ObjectReader g(r.file(), (*graphs)[i], json_pointer_append(r.pointer("graphs"), i));
    out.push_back({g.optional_integer("kernel_nodes"), g.optional_integer("nodes"),
                   g.optional_integer("pool_reserved_bytes"), g.optional_integer("pool_allocated_bytes")});
  }
  return out;
}

MemoryUse read_memory(const ObjectReader& m) {
  MemoryUse out;
  out.peak_allocated_bytes = m.integer("peak_allocated_bytes");
  out.peak_reserved_bytes = m.integer("peak_reserved_bytes");
  out.step_peak_bytes = m.integer("step_peak_bytes", std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::max(), "an integer");
  out.graph_pool_bytes = m.optional_integer("graph_pool_bytes");
  return out;
}

void read_extras(const ObjectReader& r, ResultRecord& rec) {
  rec.capture_ms = r.optional_number("capture_ms");
  rec.max_abs_error = r.optional_number("max_abs_error");
  if (r.find_value("sm_clock_mhz")) {
    const ObjectReader clock = r.object("sm_clock_mhz");
    rec.sm_clock_start_mhz = clock.optional_number("start");
    rec.sm_clock_end_mhz = clock.optional_number("end");
  }
  if (r.find_value("roofline")) {
    const ObjectReader f = r.object("roofline");
    rec.roofline = Roofline{f.number("bytes"), f.number("flops"), f.number("achieved_gbps"),
                            f.optional_number("bandwidth_share"), f.number("achieved_tflops")};
  }
  if (const json* counters = r.find("counters")) {
    const ObjectReader c(r.file(), *counters, r.pointer("counters"));
    for (const auto& item : counters->items()) {
      rec.counters[item.key()] = c.integer(item.key(), std::numeric_limits<std::int64_t>::min(),
                                           std::numeric_limits<std::int64_t>::max(), "an integer");
    }
  }
  if (r.find_value("profile")) rec.profile = read_profile(r.object("profile"));
  rec.graphs = read_graphs(r);
  if (r.find_value("memory")) rec.memory = read_memory(r.object("memory"));
  rec.warnings = r.strings("warnings");
  if (r.find_value("published")) {
    const ObjectReader p = r.object("published");
    rec.published = PublishedComparison{p.optional_number("speedup"), p.optional_number("eager_us"),
                                        p.optional_number("variant_us"), p.string("source"),
                                        p.string("device")};
  }
}

TrainingSummary read_training(const ObjectReader& t) {
  TrainingSummary out;
  if (const json* epochs = t.find("epochs")) {
    if (!epochs->is_array()) t.fail_expected(t.pointer("epochs"), "an array of epochs", *epochs);
    for (std::size_t i = 0; i < epochs->size(); ++i) {
      const ObjectReader e(t.file(), (*epochs)[i], json_pointer_append(t.pointer("epochs"), i));
      TrainingEpoch epoch;
      epoch.epoch = static_cast<int>(e.integer("epoch", 0, std::numeric_limits<int>::max()));
      epoch.train_seconds = e.number("train_seconds");
      epoch.test_seconds = e.number("test_seconds");
      epoch.logged_samples = e.integer("logged_samples");
      epoch.dataset_size = e.integer("dataset_size");
      epoch.logged_loss = e.number("logged_loss");
      epoch.test_loss = e.number("test_loss");
      epoch.test_accuracy = e.number("test_accuracy");
      out.epochs.push_back(epoch);
    }
  }
  out.total_seconds = t.number("total_seconds");
  out.median_step_us = t.optional_number("median_step_us").value_or(0.0);
  out.train_steps = t.integer("train_steps");
  out.skipped_batches = t.integer("skipped_batches");
  out.train_executor = t.string("train_executor");
  out.test_executor = t.string("test_executor");
  // Absent from files written before the breakdown existed: they read as 0 and "".
  out.load_seconds = t.number("load_seconds");
  out.setup_seconds = t.number("setup_seconds");
  out.capture_seconds = t.number("capture_seconds");
  out.train_seconds = t.number("train_seconds");
  out.test_seconds = t.number("test_seconds");
  out.other_seconds = t.number("other_seconds");
  out.decode_seconds = t.number("decode_seconds");
  out.context_seconds = t.number("context_seconds");
  out.graph_capture_seconds = t.number("graph_capture_seconds");
  out.first_calls_seconds = t.number("first_calls_seconds");
  out.data_placement = t.string("data_placement");
  out.batch_order = t.string("batch_order");
  return out;
}

DataParallelFigures read_data_parallel(const ObjectReader& d) {
  DataParallelFigures out;
  out.world_size = static_cast<int>(d.integer("world_size", 1, std::numeric_limits<int>::max(), "a positive integer"));
  out.backend = d.string("backend");
  out.samples_per_rank = d.integer("samples_per_rank");
  out.global_batch = d.integer("global_batch");
  out.rank_median_us = d.numbers("rank_median_us");
  out.median_us = d.number("median_us");
  out.slowest_rank = static_cast<int>(d.integer("slowest_rank", 0, std::numeric_limits<int>::max()));
  out.slowest_median_us = d.number("slowest_median_us");
  out.samples_per_second = d.number("samples_per_second");
  out.gradient_bytes = d.integer("gradient_bytes");
  out.buckets = d.integer("buckets");
  out.all_reduce_us = d.optional_number("all_reduce_us");
  out.one_rank_us = d.optional_number("one_rank_us");
  out.scaling_efficiency = d.optional_number("scaling_efficiency");
  if (const json* same = d.find("params_identical")) {
    if (!same->is_boolean()) d.fail_expected(d.pointer("params_identical"), "true or false", *same);
    out.params_identical = same->get<bool>();
  }
  out.max_error_vs_one_process = d.optional_number("max_error_vs_one_process");
  return out;
}

ResultRecord read_record(const ObjectReader& r) {
  ResultRecord rec;
  rec.case_name = r.string("case", true);
  rec.workload = r.string("workload", true);
  rec.variant = r.string("variant", true);
  rec.method = r.string("method");
  if (!r.find("method")) {
    // Files written before records named their method: the variant's own (a plain graph variant
    // always fed its inputs, then replayed).
    if (const Variant* v = Variant::find(rec.variant)) rec.method = v->method();
  }
  rec.kind = r.string("kind", true);
  rec.mode = r.string("mode", true);
  rec.dtype = r.string("dtype", true);
  rec.device = r.string("device", true);
  if (const json* params = r.find("params")) {
    if (!params->is_object()) r.fail_expected(r.pointer("params"), "an object", *params);
    rec.params = *params;
  }
  rec.status = read_status(r);
  rec.reason = r.string("reason");
  read_timing(r, rec);
  read_extras(r, rec);
  if (r.find_value("training")) {
    rec.training = read_training(r.object("training"));
    rec.training->step_samples_us = rec.samples_us;
    rec.training->steps_per_block = rec.steps_per_sample;
  }
  if (r.find_value("data_parallel")) rec.data_parallel = read_data_parallel(r.object("data_parallel"));
  return rec;
}

void check_schema_version(const ObjectReader& root) {
  const json& v = *root.find("schema_version", true);
  const std::int64_t version = root.integer_at(
      v, "/schema_version", 1, std::numeric_limits<int>::max(), "a positive integer");
  if (version > kResultsSchemaVersion) {
    root.fail("/schema_version",
              fmt::format("schema version {} is newer than the version this graphbench reads ({}); "
                          "use a newer graphbench",
                          version, kResultsSchemaVersion));
  }
}

}  // namespace

RunReport report_from_json(const json& document, const std::string& source_name) {
  const ObjectReader root(source_name, document, "");
  check_schema_version(root);
  if (const json* tool = root.find("tool"); tool && *tool != "graphbench") {
    root.fail_expected("/tool", "\"graphbench\"", *tool);
  }
  RunReport report;
  report.environment = read_environment(root);
  report.environment.schema_version = document.at("schema_version").get<int>();
  if (const json* interrupted = root.find_value("interrupted")) {
    if (!interrupted->is_boolean()) root.fail_expected("/interrupted", "true or false", *interrupted);
    report.interrupted = interrupted->get<bool>();
  }
  report.interrupted_by = root.find_value("interrupted_by") ? root.string("interrupted_by") : "";
  const json& records = *root.find("records", true);
  if (!records.is_array()) root.fail_expected("/records", "an array of records", records);
  for (std::size_t i = 0; i < records.size(); ++i) {
    report.records.push_back(
        read_record(ObjectReader(source_name, records[i], json_pointer_append("/records", i))));
  }
  return report;
}

RunReport read_results_file(const std::string& path) {
  return report_from_json(parse_json_text(read_text_file(path, "results file"), path), path);
}

}  // namespace graphbench
