// --format gbench (src/graphbench/core/report/writers.h): the fields that Google Benchmark writes
// and that github-action-benchmark ("googlecpp") and Bencher ("cpp_google") read, checked on a
// report built in code, on the golden file (tests/golden/report_golden.gbench.json, written by
// writers_test from the golden report) and on any results.gbench.json committed from a GPU run.
#include "support/catch.h"
#include "support/skip.h"

#include "graphbench/core/json/json_text.h"
#include "graphbench/core/report/writers.h"
#include "graphbench/core/report/json_io.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace graphbench;
using nlohmann::json;

// What both dashboards and Google Benchmark's own tools need of a file; returns the entries by name.
std::map<std::string, json> check_gbench_fields(const json& doc) {
  REQUIRE(doc.is_object());
  const json& context = doc.at("context");
  for (const char* key : {"date", "host_name", "executable", "library_build_type"}) {
    INFO("context." << key);
    CHECK(context.at(key).is_string());
  }
  CHECK((context.at("num_cpus").is_number_integer() || context.at("num_cpus").is_null()));
  CHECK((context.at("mhz_per_cpu").is_number_integer() || context.at("mhz_per_cpu").is_null()));
  CHECK((context.at("cpu_scaling_enabled").is_boolean() || context.at("cpu_scaling_enabled").is_null()));
  CHECK(context.at("caches").is_array());  // Bencher's cpp_google adapter requires it
  CHECK(context.at("load_avg").is_array());
  CHECK(context.at("json_schema_version") == 1);
  CHECK((context.at("library_build_type") == "release" || context.at("library_build_type") == "debug"));

  // Entries by name: an aggregate's or an errored run's name is unique; a run's repetitions share
  // one, and are returned as their first (repetition_index 0).
  std::map<std::string, json> by_name;
  std::map<std::string, std::vector<json>> repetitions;  // iteration entries by run_name
  const json& benchmarks = doc.at("benchmarks");
  REQUIRE(benchmarks.is_array());
  for (const json& b : benchmarks) {
    const std::string name = b.at("name").get<std::string>();
    INFO("benchmark " << name);
    CHECK_FALSE(name.empty());
    CHECK(b.at("run_name").is_string());
    CHECK(b.at("threads") == 1);
    CHECK(b.at("repetitions").is_number_integer());
    CHECK(b.at("iterations").is_number_integer());
    CHECK(b.at("real_time").is_number());  // never null: both readers take it as a number
    CHECK(b.at("cpu_time").is_number());
    const std::set<std::string> units = {"ns", "us", "ms", "s"};
    CHECK(units.count(b.at("time_unit").get<std::string>()) == 1);
    for (const auto& item : b.items()) {
      // Counters are extra numeric keys; the only other strings are Google Benchmark's own.
      const std::set<std::string> strings = {"name",  "run_name",       "run_type",      "time_unit",
                                             "label", "error_message", "aggregate_name", "aggregate_unit"};
      if (item.value().is_string()) CHECK(strings.count(item.key()) == 1);
      if (!item.value().is_string()) CHECK((item.value().is_number() || item.value().is_boolean()));
    }
    if (b.contains("error_occurred")) {
      CHECK(b.at("error_occurred") == true);
      CHECK(b.at("error_message").is_string());
      CHECK(b.at("iterations") == 0);
    }
    if (b.at("run_type") == "aggregate") {
      const std::string aggregate = b.at("aggregate_name").get<std::string>();
      CHECK(std::set<std::string>{"mean", "median", "stddev", "cv"}.count(aggregate) == 1);
      CHECK(b.at("aggregate_unit") == (aggregate == "cv" ? "percentage" : "time"));
      CHECK(name == b.at("run_name").get<std::string>() + "_" + aggregate);
      CHECK(b.at("repetitions") == repetitions[b.at("run_name").get<std::string>()].size());
      CHECK(by_name.emplace(name, b).second);
      continue;
    }
    REQUIRE(b.at("run_type") == "iteration");
    CHECK(name == b.at("run_name").get<std::string>());
    auto& runs = repetitions[name];
    CHECK(b.at("repetition_index") == runs.size());  // 0, 1, 2, ... in order
    runs.push_back(b);
    if (runs.size() == 1) by_name.emplace(name, b);
  }
  for (const auto& [name, runs] : repetitions) {
    INFO("benchmark " << name);
    for (const json& b : runs) CHECK(b.at("repetitions") == runs.size());
  }
  return by_name;
}

// The iteration entries (repetitions) of `name`.
std::vector<json> repetitions_of(const json& doc, const std::string& name) {
  std::vector<json> out;
  for (const json& b : doc.at("benchmarks")) {
    if (b.at("name") == name && b.at("run_type") == "iteration") out.push_back(b);
  }
  return out;
}

ResultRecord record(const std::string& case_name, const std::string& variant) {
  ResultRecord r;
  r.case_name = case_name;
  r.workload = "gelu";
  r.variant = variant;
  r.kind = RecordKind::kBenchmark;
  r.mode = Mode::kInference;
  r.dtype = "float32";
  r.device = "cuda";
  return r;
}

RunReport sample() {
  RunReport report;
  Environment& e = report.environment;
  e.date_utc = "2026-11-22T10:00:00Z";
  e.host = "gpu-box";
  e.command_line = "build/graphbench --workload ci --format gbench";
  e.build_type = "Release";
  e.cpu_count = 16;
  e.cpu_mhz = 2999.6;
  e.cpu_scaling_enabled = false;
  e.load_avg = {0.5, 0.25, 0.125};
  e.suite = "ci";
  e.gpu_name = "NVIDIA H200";

  ResultRecord graph = record("gelu-small", "graph");
  graph.samples_us = {8.0, 7.0, 9.0};
  graph.host_samples_us = {10.0, 11.0, 12.0};
  graph.steps_per_sample = 100;
  graph.stats = stats::summarize(graph.samples_us);
  graph.speedup_vs_eager = 3.4;
  graph.speedup_ci95 = stats::Interval{3.3, 3.5};
  graph.counters = {{"captures", 1}, {"replays", 300}};
  report.records.push_back(graph);

  ResultRecord skipped = record("gelu-small", "jit");
  skipped.status = RecordStatus::kSkipped;
  skipped.reason = "TorchScript is not available";
  report.records.push_back(skipped);

  ResultRecord training = record("mnist", "graph");
  training.kind = RecordKind::kTraining;
  training.samples_us = {230.0, 227.0, 229.0};
  training.steps_per_sample = 100;
  TrainingSummary t;
  t.total_seconds = 2.99;
  t.median_step_us = 229.0;
  t.train_steps = 9370;
  t.epochs = {TrainingEpoch{1, 0.2, 0.01, 59584, 60000, 0.4, 0.3, 0.8516}};
  training.training = t;
  report.records.push_back(training);
  return report;
}

}  // namespace

TEST_CASE("gbench: context and benchmarks carry Google Benchmark's fields", "[gbench]") {
  const json doc = to_gbench_json(sample());
  const auto by_name = check_gbench_fields(doc);
  const json& context = doc.at("context");
  CHECK(context.at("date") == "2026-11-22T10:00:00+00:00");
  CHECK(context.at("host_name") == "gpu-box");
  CHECK(context.at("executable") == "build/graphbench");
  CHECK(context.at("num_cpus") == 16);
  CHECK(context.at("mhz_per_cpu") == 3000);
  CHECK(context.at("cpu_scaling_enabled") == false);
  CHECK(context.at("library_build_type") == "release");
  CHECK(context.at("gpu_name") == "NVIDIA H200");

  // gelu-small/graph (3 repetitions, 4 aggregates), gelu-small/jit (errored), mnist/graph (3, 4)
  // and its total time.
  REQUIRE(doc.at("benchmarks").size() == 3 + 4 + 1 + 3 + 4 + 1);
  const auto graph = repetitions_of(doc, "gelu-small/graph");
  REQUIRE(graph.size() == 3);
  for (std::size_t k = 0; k < graph.size(); ++k) {
    CHECK(graph[k].at("run_name") == "gelu-small/graph");
    CHECK(graph[k].at("family_index") == 0);
    CHECK(graph[k].at("per_family_instance_index") == 0);
    CHECK(graph[k].at("repetitions") == 3);
    CHECK(graph[k].at("repetition_index") == k);
    CHECK(graph[k].at("iterations") == 100);  // steps per sample
    CHECK(graph[k].at("time_unit") == "us");
    CHECK_FALSE(graph[k].contains("speedup_vs_eager"));  // counters are the aggregates'
  }
  CHECK(graph[0].at("real_time") == 8.0);  // each sample's per-step device time, in order
  CHECK(graph[1].at("real_time") == 7.0);
  CHECK(graph[2].at("real_time") == 9.0);
  CHECK(graph[0].at("cpu_time") == 10.0);  // and host time
  CHECK(graph[2].at("cpu_time") == 12.0);

  const json& median = by_name.at("gelu-small/graph_median");
  CHECK(median.at("run_type") == "aggregate");
  CHECK(median.at("run_name") == "gelu-small/graph");
  CHECK(median.at("aggregate_name") == "median");
  CHECK(median.at("aggregate_unit") == "time");
  CHECK(median.at("repetitions") == 3);
  CHECK(median.at("iterations") == 3);
  CHECK(median.at("real_time") == 8.0);  // the median per-step device time
  CHECK(median.at("cpu_time") == 11.0);  // the median per-step host time
  CHECK(median.at("speedup_vs_eager") == 3.4);
  CHECK(median.at("speedup_ci_low") == 3.3);
  CHECK(median.at("captures") == 1.0);
  CHECK(median.at("replays") == 300.0);
  CHECK(median.at("samples") == 3.0);
  CHECK_FALSE(median.contains("error_occurred"));
  CHECK(by_name.at("gelu-small/graph_mean").at("real_time") == Approx(8.0));
  CHECK(by_name.at("gelu-small/graph_mean").at("speedup_vs_eager") == 3.4);
  CHECK(by_name.at("gelu-small/graph_stddev").at("real_time") == Approx(1.0));
  CHECK_FALSE(by_name.at("gelu-small/graph_stddev").contains("speedup_vs_eager"));
  const json& cv = by_name.at("gelu-small/graph_cv");
  CHECK(cv.at("aggregate_unit") == "percentage");
  CHECK(cv.at("real_time") == Approx(1.0 / 8.0));

  const json& jit = by_name.at("gelu-small/jit");
  CHECK(jit.at("per_family_instance_index") == 1);
  CHECK(jit.at("error_occurred") == true);
  CHECK(jit.at("error_message") == "skipped: TorchScript is not available");
  CHECK(jit.at("real_time") == 0.0);

  CHECK(repetitions_of(doc, "mnist/graph").size() == 3);
  const json& steps = by_name.at("mnist/graph_median");
  CHECK(steps.at("family_index") == 1);
  CHECK(steps.at("real_time") == 229.0);
  const json& total = by_name.at("mnist/graph/total_time");
  CHECK(total.at("real_time") == 2.99);
  CHECK(total.at("time_unit") == "s");
  CHECK(total.at("iterations") == 1);
  CHECK(total.at("train_steps") == 9370.0);
  CHECK(total.at("final_test_accuracy") == 0.8516);
}

TEST_CASE("gbench: a record read back without its samples is one entry of its summaries", "[gbench]") {
  RunReport report = sample();
  ResultRecord& graph = report.records[0];
  graph.samples_us.clear();
  graph.host_samples_us.clear();
  const json doc = to_gbench_json(report);
  const auto runs = repetitions_of(doc, "gelu-small/graph");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].at("repetitions") == 1);
  CHECK(runs[0].at("real_time") == 8.0);
  CHECK(runs[0].at("speedup_vs_eager") == 3.4);
  CHECK(runs[0].at("iterations") == 300);
}

TEST_CASE("gbench: unknown host facts are null, never 0", "[gbench]") {
  RunReport report = sample();
  report.environment.cpu_mhz.reset();
  report.environment.cpu_count.reset();
  const json context = to_gbench_json(report).at("context");
  CHECK(context.at("mhz_per_cpu").is_null());
  CHECK(context.at("num_cpus").is_null());
}

TEST_CASE("gbench: the golden file has the fields", "[gbench]") {
  const std::string path = testing::golden_path("report_golden.gbench.json");
  const auto by_name = check_gbench_fields(parse_json_text(read_text_file(path, "gbench file"), path));
  CHECK(by_name.count("gelu-small/graph") == 1);
  CHECK(by_name.count("gelu-small/graph_median") == 1);
  CHECK(by_name.count("mnist-train/graph/total_time") == 1);
}

TEST_CASE("gbench: files committed from GPU runs have the fields", "[gbench]") {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(testing::source_path("results"), ec)) {
    if (entry.path().filename() == "results.gbench.json") files.push_back(entry.path());
  }
  if (files.empty()) GRAPHBENCH_SKIP("no results/**/results.gbench.json committed yet (a GPU run with --format gbench)");
  for (const auto& file : files) {
    INFO(file.string());
    const json doc = parse_json_text(read_text_file(file.string(), "gbench file"), file.string());
    const auto by_name = check_gbench_fields(doc);
    CHECK_FALSE(by_name.empty());
    CHECK(doc.at("context").at("device") == "cuda");
  }
}
