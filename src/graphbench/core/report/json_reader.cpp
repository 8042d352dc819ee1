// results.json -> RunReport: the checked reader and the file entry point (json_io.h).
#include "graphbench/core/report/json_io.h"

#include "graphbench/core/base/version.h"
#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/json/json_text.h"
#include "graphbench/core/report/record_fields.h"
#include "graphbench/core/workload/variant.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <limits>

namespace graphbench {

using nlohmann::json;

namespace {

// Typed access to the keys of one JSON object of a results file: every error is an
// InputError naming the file and the JSON pointer, "<file>: <pointer>: expected <what>, got <value>".
// Absent keys read as their default; null reads as "no value" where the key is optional.
class ObjectReader : public JsonChecker {
 public:
  ObjectReader(const std::string& file, const nlohmann::json& value, std::string pointer)
      : JsonChecker(file), value_(value), pointer_(std::move(pointer)) {
    check_object(value_, pointer_);
  }

  std::string pointer(const std::string& key) const { return json_pointer_append(pointer_, key); }

  // The value of `key`, or nullptr when absent (InputError when absent and required).
  const nlohmann::json* find(const std::string& key, bool required = false) const {
    const auto it = value_.find(key);
    if (it != value_.end()) return &*it;
    if (required) fail(pointer_, fmt::format("missing required key \"{}\"", key));
    return nullptr;
  }
  // Present and not null.
  const nlohmann::json* find_value(const std::string& key) const {
    const nlohmann::json* v = find(key);
    return v && !v->is_null() ? v : nullptr;
  }
  ObjectReader object(const std::string& key) const { return {path(), *find(key), pointer(key)}; }
  // A reader for each element of the array at `key` (none when absent or null); InputError naming
  // `what` ("an array of kernels") when it is not an array.
  std::vector<ObjectReader> objects(const std::string& key, const char* what) const {
    std::vector<ObjectReader> out;
    const nlohmann::json* v = find_value(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), what, *v);
    for (std::size_t i = 0; i < v->size(); ++i) out.emplace_back(path(), (*v)[i], json_pointer_append(pointer(key), i));
    return out;
  }

  std::string string(const std::string& key, bool required = false) const {
    const nlohmann::json* v = find(key, required);
    if (!v) return {};
    if (!v->is_string()) fail_expected(pointer(key), "a string", *v);
    return v->get<std::string>();
  }

  double number_at(const nlohmann::json& v, const std::string& pointer, const char* what) const {
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (!v.is_number()) fail_expected(pointer, what, v);
    return v.get<double>();
  }
  // A number; null reads as NaN (non-finite numbers are written as null).
  double number(const std::string& key) const {
    const nlohmann::json* v = find(key);
    return v ? number_at(*v, pointer(key), "a number") : 0.0;
  }
  std::optional<double> optional_number(const std::string& key) const {
    const nlohmann::json* v = find_value(key);
    if (!v) return std::nullopt;
    if (!v->is_number()) fail_expected(pointer(key), "a number or null", *v);
    return v->get<double>();
  }

  std::int64_t integer_at(const nlohmann::json& v, const std::string& pointer, std::int64_t min,
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
    const nlohmann::json* v = find(key);
    return v ? integer_at(*v, pointer(key), min, max, what) : 0;
  }
  // A non-negative integer (at most `max`), or nullopt when absent or null.
  std::optional<std::int64_t> optional_integer(const std::string& key,
                                               std::int64_t max = std::numeric_limits<std::int64_t>::max()) const {
    const nlohmann::json* v = find_value(key);
    if (!v) return std::nullopt;
    return integer_at(*v, pointer(key), 0, max, "a non-negative integer or null");
  }

  std::optional<bool> optional_bool(const std::string& key) const {
    const nlohmann::json* v = find_value(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) fail_expected(pointer(key), "true, false or null", *v);
    return v->get<bool>();
  }

  std::vector<double> numbers(const std::string& key) const {
    std::vector<double> out;
    const nlohmann::json* v = find(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), "an array of numbers", *v);
    for (std::size_t i = 0; i < v->size(); ++i) {
      out.push_back(number_at((*v)[i], json_pointer_append(pointer(key), i), "a number"));
    }
    return out;
  }

  std::vector<std::string> strings(const std::string& key) const {
    std::vector<std::string> out;
    const nlohmann::json* v = find(key);
    if (!v) return out;
    if (!v->is_array()) fail_expected(pointer(key), "an array of strings", *v);
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string()) fail_expected(json_pointer_append(pointer(key), i), "a string", (*v)[i]);
      out.push_back((*v)[i].get<std::string>());
    }
    return out;
  }

 private:
  const nlohmann::json& value_;
  std::string pointer_;
};

std::optional<stats::Interval> read_interval(const ObjectReader& r, const std::string& key) {
  const json* v = r.find_value(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_array() || v->size() != 2 || !(*v)[0].is_number() || !(*v)[1].is_number()) {
    r.fail_expected(r.pointer(key), "[low, high] (two numbers) or null", *v);
  }
  return stats::Interval{(*v)[0].get<double>(), (*v)[1].get<double>()};
}

// A field as the reader takes it (record_fields.h): absent, it keeps its default; null reads as no
// value where the field is optional and as NaN for a number.
void read_field(const ObjectReader& r, const char* key, std::string& v) {
  if (r.find(key)) v = r.string(key);
}
void read_field(const ObjectReader& r, const char* key, double& v) {
  if (r.find(key)) v = r.number(key);
}
void read_field(const ObjectReader& r, const char* key, std::int64_t& v) {
  if (r.find(key)) v = r.integer(key);
}
void read_field(const ObjectReader& r, const char* key, int& v) {
  if (r.find(key)) v = static_cast<int>(r.integer(key, 0, std::numeric_limits<int>::max()));
}
void read_field(const ObjectReader& r, const char* key, bool& v) { v = r.optional_bool(key).value_or(v); }
void read_field(const ObjectReader& r, const char* key, std::vector<double>& v) { v = r.numbers(key); }
void read_field(const ObjectReader& r, const char* key, std::optional<double>& v) { v = r.optional_number(key); }
void read_field(const ObjectReader& r, const char* key, std::optional<std::int64_t>& v) { v = r.optional_integer(key); }
void read_field(const ObjectReader& r, const char* key, std::optional<bool>& v) { v = r.optional_bool(key); }
void read_field(const ObjectReader& r, const char* key, std::optional<stats::Interval>& v) { v = read_interval(r, key); }
void read_field(const ObjectReader& r, const char* key, StartEnd& v) {
  if (!r.find_value(key)) return;
  const ObjectReader o = r.object(key);
  v = {o.optional_number("start"), o.optional_number("end")};
}
void read_field(const ObjectReader& r, const char* key, std::optional<int>& v) {
  if (const auto n = r.optional_integer(key, std::numeric_limits<int>::max())) v = static_cast<int>(*n);
}

// `s` with the fields `list` names read from `r`.
template <class S, class List>
S read_fields(const ObjectReader& r, List list, S s = {}) {
  list(s, [&](const char* key, auto& value) { read_field(r, key, value); });
  return s;
}

// The kind at `key`, written as one of E's names ("" when absent and not required).
template <class E>
E read_kind(const ObjectReader& r, const std::string& key, bool required = false) {
  const std::string text = r.string(key, required);
  if (const auto kind = from_string<E>(text)) return *kind;
  r.fail_expected(r.pointer(key), fmt::format("\"{}\"", fmt::join(KindNames<E>::names, "\" or \"")), text);
}

void read_timing(const ObjectReader& r, ResultRecord& rec) {
  record_fields(rec, [&](const char* key, auto& value) { read_field(r, key, value); });
  rec.steps_per_sample = r.optional_integer("steps_per_sample").value_or(0);
  if (r.find_value("l2")) rec.l2 = read_kind<L2Cache>(r, "l2");
  if (r.optional_number("median_us")) {
    rec.stats = read_fields<stats::Summary>(r, summary_fields);
    rec.stats->count = rec.samples_us.size();
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
}

KernelProfile read_profile(const ObjectReader& p) {
  auto out = read_fields<KernelProfile>(p, profile_fields);
  for (const ObjectReader& k : p.objects("kernels", "an array of kernels")) {
    out.kernels.push_back(read_fields<KernelStat>(k, kernel_fields));
  }
  return out;
}

MemoryUse read_memory(const ObjectReader& m) {
  auto out = read_fields<MemoryUse>(m, memory_fields);
  out.step_peak_bytes = m.integer("step_peak_bytes", std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::max(), "an integer");
  return out;
}

// Files written before these fields existed have neither key: the record reads without them.
GpuConditions read_gpu_conditions(const ObjectReader& g) {
  auto c = read_fields<GpuConditions>(g, gpu_conditions_fields);
  if (g.find_value("throttle_reasons")) c.throttle_reasons = g.strings("throttle_reasons");
  return c;
}

EnergyPerStep read_energy(const ObjectReader& e) {
  auto out = read_fields<EnergyPerStep>(e, energy_fields);
  out.seconds = e.optional_number("seconds").value_or(0.0);
  out.unavailable = e.find_value("unavailable") ? e.string("unavailable") : "";
  return out;
}

void read_extras(const ObjectReader& r, ResultRecord& rec) {
  if (r.find_value("sweep")) {
    const ObjectReader sweep = r.object("sweep");
    rec.sweep = SweepPoint{sweep.string("group"), sweep.string("axis"), sweep.integer("value")};
  }
  rec.validation_note = r.find_value("validation_note") ? r.string("validation_note") : "";
  StartEnd clock;
  read_field(r, "sm_clock_mhz", clock);
  rec.sm_clock_start_mhz = clock.start;
  rec.sm_clock_end_mhz = clock.end;
  if (r.find_value("gpu_conditions")) rec.gpu_conditions = read_gpu_conditions(r.object("gpu_conditions"));
  if (r.find_value("energy")) rec.energy = read_energy(r.object("energy"));
  if (r.find_value("roofline")) rec.roofline = read_fields<Roofline>(r.object("roofline"), roofline_fields);
  if (const json* counters = r.find("counters")) {
    const ObjectReader c(r.path(), *counters, r.pointer("counters"));
    for (const auto& item : counters->items()) {
      rec.counters[item.key()] = c.integer(item.key(), std::numeric_limits<std::int64_t>::min(),
                                           std::numeric_limits<std::int64_t>::max(), "an integer");
    }
  }
  if (r.find_value("profile")) rec.profile = read_profile(r.object("profile"));
  for (const ObjectReader& g : r.objects("graphs", "an array of graphs")) {
    rec.graphs.push_back(read_fields<GraphFacts>(g, graph_fields));
  }
  rec.graphs_per_step = r.optional_integer("graphs_per_step");
  rec.launches_per_step = r.optional_number("launches_per_step");
  if (r.find_value("scope")) rec.scope = r.string("scope");
  if (r.find_value("scope_group")) rec.scope_group = r.string("scope_group");
  if (r.find_value("memory")) rec.memory = read_memory(r.object("memory"));
  rec.warnings = r.strings("warnings");
  if (r.find_value("published")) rec.published = read_fields<PublishedComparison>(r.object("published"), published_fields);
}

TrainingSummary read_training(const ObjectReader& t) {
  TrainingSummary out;
  for (const ObjectReader& e : t.objects("epochs", "an array of epochs")) {
    out.epochs.push_back(read_fields<TrainingEpoch>(e, training_epoch_fields));
  }
  out.median_step_us = t.optional_number("median_step_us").value_or(0.0);
  return read_fields(t, training_fields, std::move(out));
}

std::vector<GradientChunks> read_chunked_gradients(const ObjectReader& d) {
  std::vector<GradientChunks> out;
  for (const ObjectReader& c : d.objects("chunked_gradients", "an array of chunked gradients")) {
    GradientChunks chunks{c.string("param", true), {}};
    const std::string rows_pointer = c.pointer("rows");
    const json* rows = c.find("rows", true);
    if (!rows->is_array()) c.fail_expected(rows_pointer, "an array of positive integers", *rows);
    for (std::size_t k = 0; k < rows->size(); ++k) {
      chunks.rows.push_back(c.integer_at((*rows)[k], json_pointer_append(rows_pointer, k), 1,
                                         std::numeric_limits<std::int64_t>::max(), "a positive integer"));
    }
    out.push_back(std::move(chunks));
  }
  return out;
}

// NAME: value strings; absent or null reads as no value.
std::optional<std::map<std::string, std::string>> read_string_map(const ObjectReader& d, const std::string& key) {
  const json* v = d.find_value(key);
  if (!v) return std::nullopt;
  std::map<std::string, std::string> out;
  if (!v->is_object()) d.fail_expected(d.pointer(key), "an object of strings", *v);
  for (const auto& [name, value] : v->items()) {
    if (!value.is_string()) d.fail_expected(json_pointer_append(d.pointer(key), name), "a string", value);
    out.emplace(name, value.get<std::string>());
  }
  return out;
}

DataParallelFigures read_data_parallel(const ObjectReader& d) {
  DataParallelFigures out;
  out.world_size = static_cast<int>(d.integer("world_size", 1, std::numeric_limits<int>::max(), "a positive integer"));
  out.backend_settings = read_string_map(d, "backend_settings");
  out.chunked_gradients = read_chunked_gradients(d);
  for (double n : d.numbers("ranks_per_node")) {
    if (!(n >= 1.0 && n <= std::numeric_limits<int>::max()) || n != static_cast<double>(static_cast<int>(n))) {
      d.fail_expected(d.pointer("ranks_per_node"), "an array of positive integers", *d.find("ranks_per_node"));
    }
    out.ranks_per_node.push_back(static_cast<int>(n));
  }
  if (const json* same = d.find("params_identical")) {
    if (!same->is_boolean()) d.fail_expected(d.pointer("params_identical"), "true or false", *same);
    out.params_identical = same->get<bool>();
  }
  return read_fields(d, data_parallel_fields, std::move(out));
}

Repetitions read_repetitions(const ObjectReader& p) {
  Repetitions out;
  out.requested = static_cast<int>(p.integer("requested", 1, std::numeric_limits<int>::max()));
  out = read_fields(p, repetitions_fields, std::move(out));
  for (const ObjectReader& f : p.objects("runs", "an array of repetitions")) {
    out.runs.push_back(read_fields<RepetitionFigures>(f, repetition_fields));
  }
  return out;
}

ResultRecord read_record(const ObjectReader& r) {
  ResultRecord rec;
  rec.case_name = r.string("case", true);
  rec.workload = r.string("workload", true);
  rec.variant = r.string("variant", true);
  rec.method = read_kind<StepMethod>(r, "method");
  if (!r.find("method")) {
    // Files written before records named their method: the variant's own (a plain graph variant
    // always fed its inputs, then replayed).
    if (const Variant* v = Variant::find(rec.variant)) rec.method = v->method();
  }
  rec.kind = read_kind<RecordKind>(r, "kind", true);
  rec.mode = read_kind<Mode>(r, "mode", true);
  rec.dtype = r.string("dtype", true);
  rec.device = r.string("device", true);
  if (const json* params = r.find("params")) {
    if (!params->is_object()) r.fail_expected(r.pointer("params"), "an object", *params);
    rec.params = *params;
  }
  rec.status = read_kind<RecordStatus>(r, "status", true);
  rec.reason = r.string("reason");
  read_timing(r, rec);
  read_extras(r, rec);
  if (r.find_value("training")) {
    rec.training = read_training(r.object("training"));
    rec.training->step_samples_us = rec.samples_us;
    rec.training->steps_per_block = rec.steps_per_sample;
  }
  if (r.find_value("data_parallel")) rec.data_parallel = read_data_parallel(r.object("data_parallel"));
  if (r.find_value("repetitions")) rec.repetitions = read_repetitions(r.object("repetitions"));
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

// The shared pools the runner measured after each sweep, kept only in the top-level "sweeps"
// array (core/report/sweep_sections.h): read back so that a report written again keeps them. The
// pool held the graphs of capture_sizes, captured largest first.
std::vector<SharedPoolMeasurement> read_shared_pools(const ObjectReader& root) {
  std::vector<SharedPoolMeasurement> pools;
  for (const ObjectReader& sweep : root.objects("sweeps", "an array of sweeps")) {
    const auto bytes = sweep.optional_integer("shared_pool_bytes");
    const std::string error = sweep.find_value("shared_pool_error") ? sweep.string("shared_pool_error") : "";
    if (!bytes && error.empty()) continue;
    SharedPoolMeasurement m;
    m.group = sweep.string("case", true);
    m.variant = sweep.string("variant", true);
    for (const double size : sweep.numbers("capture_sizes")) m.sizes.insert(m.sizes.begin(), static_cast<std::int64_t>(size));
    m.reserved_bytes = bytes;
    m.error = error;
    pools.push_back(std::move(m));
  }
  return pools;
}

// Results files written before records carried "scope_group" said a record was a point of a scope
// sweep only by its name, NAME[scope=SCOPE]: where no record of the file has the field, each
// record named so gets NAME as its scope_group, so that old files still give their scope verdicts.
void name_scope_groups_of_old_files(std::vector<ResultRecord>& records) {
  for (const ResultRecord& r : records) {
    if (!r.scope_group.empty()) return;
  }
  for (ResultRecord& r : records) {
    const std::string label = "[scope=" + r.scope + "]";
    const auto at = r.case_name.find(label);
    if (at != std::string::npos) r.scope_group = r.case_name.substr(0, at) + r.case_name.substr(at + label.size());
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
  report.environment.tool_version = root.string("tool_version");
  if (root.find("environment")) report.environment = read_fields(root.object("environment"), environment_fields, report.environment);
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
  report.shared_pools = read_shared_pools(root);
  name_scope_groups_of_old_files(report.records);
  return report;
}

RunReport read_results_file(const std::string& path) {
  return report_from_json(parse_json_text(read_text_file(path, "results file"), path), path);
}

}  // namespace graphbench
