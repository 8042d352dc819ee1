// Tests of results.json reading and writing: the golden file field by field, lossless round
// trips, and the exact messages of bad input.
#include "support/catch.h"
#include "support/error_of.h"
#include "support/records.h"
#include "support/scratch_dir.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/version.h"
#include "graphbench/core/report/json_io.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

using graphbench::InputError;
using graphbench::read_results_file;
using graphbench::RecordStatus;
using graphbench::report_from_json;
using graphbench::RunReport;
using graphbench::to_json;
using nlohmann::json;

namespace {

using graphbench::testing::input_error_of;

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// The message of the InputError `f` throws ("no error" when it throws none).
std::string document_error(const json& document) {
  return input_error_of([&] { report_from_json(document, "base.json"); });
}

json minimal_document() {
  return json::parse(R"({"schema_version": 1, "records": [
    {"case": "c", "workload": "w", "variant": "eager", "kind": "benchmark",
     "mode": "inference", "dtype": "float32", "device": "cpu", "status": "ok"}]})");
}


}  // namespace

TEST_CASE("the golden results file reads field by field", "[json_io]") {
  const RunReport report =
      read_results_file(graphbench::testing::golden_path("results_golden.json"));
  const auto& env = report.environment;
  CHECK(env.schema_version == 1);
  CHECK(env.tool_version == "0.1.0");
  CHECK(env.date_utc == "2026-11-21T23:59:00Z");
  CHECK(env.host == "gpu-box");
  CHECK(env.os == "Linux 6.1 x86_64");
  CHECK(env.git_commit == "abc1234");
  CHECK(env.build_type == "Release");
  CHECK(env.compiler == "GNU 12.2.0");
  CHECK(env.libtorch_version == "2.11.0");
  CHECK(env.device == "cuda");
  CHECK(env.gpu_name == "NVIDIA H100 80GB HBM3");
  CHECK(env.driver_version == "580.159.04");
  CHECK(env.cuda_runtime_version == "13.0");
  CHECK(env.cudnn_version == "91000");
  CHECK(env.sm_count == 132);
  CHECK(env.gpu_memory_gib == 79.2);
  CHECK(env.sm_clock_max_mhz == 1980.0);
  CHECK(env.copy_bandwidth_gbps == 3012.5);
  CHECK(env.command_line == "graphbench --workload gelu");
  CHECK(env.suite == "gelu");
  CHECK(env.config_path == "configs/gelu.json");
  CHECK(env.cpu_count == 16);
  CHECK(env.cpu_mhz == 2999.9);
  CHECK(env.cpu_scaling_enabled == false);
  CHECK(env.load_avg == std::vector<double>{0.4, 0.3, 0.2});
  CHECK_FALSE(report.interrupted);
  REQUIRE(report.records.size() == 4);

  SECTION("ok benchmark record") {
    const auto& r = report.records[0];
    CHECK(r.case_name == "gelu-small");
    CHECK(r.workload == "gelu");
    CHECK(r.variant == "graph");
    CHECK(r.method == StepMethod::kFeedReplay);
    CHECK(r.kind == RecordKind::kBenchmark);
    CHECK(r.mode == Mode::kInference);
    CHECK(r.dtype == "float32");
    CHECK(r.device == "cuda");
    CHECK(r.params == json{{"shape", {1, 3, 224, 224}}});
    CHECK(r.issue_samples_us == std::vector<double>{7.6, 7.62, 7.58, 7.7, 7.61, 7.66, 7.6, 7.64});
    CHECK(r.issue_median_us == 7.61);
    CHECK(r.host_bound == true);
    CHECK(r.back_to_back_us == 6.9);
    CHECK(r.l2 == L2Cache::kHot);
    REQUIRE(r.profile.has_value());
    CHECK(r.profile->steps == 10);
    CHECK(r.profile->kernels_per_step == 5.0);
    CHECK(r.profile->copies_per_step == 1.0);
    CHECK(r.profile->busy_us_per_step == 6.125);
    CHECK(r.profile->busy_share == 0.78);
    REQUIRE(r.profile->kernels.size() == 2);
    CHECK(r.profile->kernels[1].name == "vectorized_elementwise_kernel<4, mul>");
    CHECK(r.profile->kernels[1].per_step == 2.0);
    CHECK(r.profile->kernels[1].us_per_step == 2.25);
    REQUIRE(r.graphs.size() == 1);
    CHECK(r.graphs[0].kernel_nodes == 5);
    CHECK(r.graphs[0].nodes == 5);
    CHECK(r.graphs[0].pool_reserved_bytes == 2097152);
    CHECK(r.graphs[0].pool_allocated_bytes == 0);
    REQUIRE(r.memory.has_value());
    CHECK(r.memory->peak_allocated_bytes == 12058624);
    CHECK(r.memory->peak_reserved_bytes == 23068672);
    CHECK(r.memory->step_peak_bytes == 0);
    CHECK(r.memory->graph_pool_bytes == 2097152);
    CHECK(r.status == RecordStatus::kOk);
    CHECK(r.reason.empty());
    CHECK(r.steps_per_sample == 128);
    CHECK(r.samples_us == std::vector<double>{7.81, 7.85, 7.79, 7.92, 7.84, 7.88, 7.83, 7.86});
    CHECK(r.host_samples_us == std::vector<double>{8.12, 8.15, 8.11, 8.3, 8.14, 8.18, 8.13, 8.16});
    REQUIRE(r.stats.has_value());
    CHECK(r.stats->count == 8);
    CHECK(r.stats->median == 7.845);
    CHECK(r.stats->iqr == 0.04);
    CHECK(r.stats->min == 7.79);
    CHECK(r.stats->max == 7.92);
    CHECK(r.stats->mean == 7.8475);
    CHECK(r.stats->stddev == 0.0406);
    CHECK(r.stats->cv == 0.00518);
    CHECK(r.stats->q1 == 7.825);
    CHECK(r.stats->q3 == 7.865);
    REQUIRE(r.host_stats.has_value());
    CHECK(r.host_stats->median == 8.145);
    CHECK(r.host_stats->count == 8);  // recomputed from host_samples_us
    CHECK(r.host_stats->max == 8.3);
    CHECK(r.rel_noise == 0.0083);
    CHECK(r.stop_reason == "noise target reached");
    CHECK(r.speedup_vs_eager == 6.3);
    REQUIRE(r.speedup_ci95.has_value());
    CHECK(r.speedup_ci95->low == 6.1);
    CHECK(r.speedup_ci95->high == 6.5);
    CHECK(r.capture_ms == 1.2);
    CHECK(r.max_abs_error == 0.0);
    CHECK(r.sm_clock_start_mhz == 1980.0);
    CHECK(r.sm_clock_end_mhz == 1965.0);
    REQUIRE(r.roofline.has_value());
    CHECK(r.roofline->bytes == 1204224.0);
    CHECK(r.roofline->flops == 752640.0);
    CHECK(r.roofline->achieved_gbps == 153.4);
    CHECK(r.roofline->bandwidth_share == 0.05);
    CHECK(r.roofline->achieved_tflops == 0.1);
    CHECK(r.counters ==
          std::map<std::string, std::int64_t>{
              {"compiles", 1}, {"captures", 1}, {"replays", 5000}, {"cache_hits", 4999}});
    CHECK(r.warnings == std::vector<std::string>{"IQR/median above 10% in 1 of 8 blocks"});
    REQUIRE(r.published.has_value());
    CHECK(r.published->speedup == 1.09);
    CHECK(r.published->eager_us == 70.9);
    CHECK(r.published->variant_us == 64.9);
    CHECK(r.published->source == "PyTorch 1.10 CUDA Graphs blog, pytorch.org/blog/accelerating-pytorch-with-cuda-graphs");
    CHECK(r.published->device == "Tesla K80");
    CHECK_FALSE(r.training.has_value());
  }

  SECTION("skipped record: absent optional values are empty") {
    const auto& r = report.records[1];
    CHECK(r.variant == "jit+graph:replay");
    CHECK(r.method == StepMethod::kReplay);
    CHECK(r.issue_samples_us.empty());
    CHECK_FALSE(r.issue_median_us.has_value());
    CHECK_FALSE(r.host_bound.has_value());
    CHECK_FALSE(r.back_to_back_us.has_value());
    CHECK_FALSE(r.l2.has_value());
    CHECK_FALSE(r.profile.has_value());
    CHECK(r.graphs.empty());
    CHECK_FALSE(r.memory.has_value());
    CHECK(r.status == RecordStatus::kSkipped);
    CHECK(r.reason == "TorchScript is not available in this LibTorch build");
    CHECK(r.steps_per_sample == 0);
    CHECK(r.samples_us.empty());
    CHECK(r.host_samples_us.empty());
    CHECK_FALSE(r.stats.has_value());
    CHECK_FALSE(r.host_stats.has_value());
    CHECK(r.rel_noise == 0.0);
    CHECK(r.stop_reason.empty());
    CHECK_FALSE(r.speedup_vs_eager.has_value());
    CHECK_FALSE(r.speedup_ci95.has_value());
    CHECK_FALSE(r.capture_ms.has_value());
    CHECK_FALSE(r.max_abs_error.has_value());
    CHECK_FALSE(r.sm_clock_start_mhz.has_value());
    CHECK_FALSE(r.sm_clock_end_mhz.has_value());
    CHECK_FALSE(r.roofline.has_value());
    CHECK(r.counters.empty());
    CHECK(r.warnings.empty());
    CHECK_FALSE(r.published.has_value());
    CHECK_FALSE(r.training.has_value());
  }

  SECTION("failed record") {
    const auto& r = report.records[2];
    CHECK(r.case_name == "gelu-large");
    CHECK(r.variant == "static");
    CHECK(r.method == StepMethod::kFeedRun);
    CHECK(r.l2 == L2Cache::kCold);
    CHECK(r.dtype == "float16");
    CHECK(r.status == RecordStatus::kFailed);
    CHECK(r.reason == "validation against eager: max abs error 0.5 above tolerance 0.001");
    CHECK(r.max_abs_error == 0.5);
    CHECK(r.sm_clock_start_mhz == 1980.0);
    CHECK_FALSE(r.sm_clock_end_mhz.has_value());
    CHECK(r.counters == std::map<std::string, std::int64_t>{{"compiles", 1}});
    REQUIRE(r.published.has_value());
    CHECK_FALSE(r.published->speedup.has_value());
    CHECK(r.published->eager_us == 58.5);
    CHECK_FALSE(r.published->variant_us.has_value());
    CHECK(r.published->source == "graphbench H200 run, results/NVIDIA-H200");
    CHECK(r.published->device == "NVIDIA H200");
  }

  SECTION("training record") {
    const auto& r = report.records[3];
    CHECK(r.case_name == "mnist-train");
    CHECK(r.kind == RecordKind::kTraining);
    CHECK(r.mode == Mode::kTrain);
    CHECK(r.speedup_vs_eager == 4.1);
    CHECK(r.capture_ms == 35.5);
    REQUIRE(r.training.has_value());
    const auto& t = *r.training;
    REQUIRE(t.epochs.size() == 2);
    CHECK(t.epochs[0].epoch == 1);
    CHECK(t.epochs[0].train_seconds == 0.4);
    CHECK(t.epochs[0].test_seconds == 0.01);
    CHECK(t.epochs[0].logged_samples == 59584);
    CHECK(t.epochs[0].dataset_size == 60000);
    CHECK(t.epochs[0].logged_loss == 0.3921);
    CHECK(t.epochs[0].test_loss == 0.2051);
    CHECK(t.epochs[0].test_accuracy == 0.938);
    CHECK(t.epochs[1].epoch == 2);
    CHECK(t.epochs[1].test_accuracy == 0.949);
    CHECK(t.total_seconds == 4.1);
    CHECK(t.median_step_us == 240.0);
    CHECK(t.train_steps == 1874);
    CHECK(t.skipped_batches == 2);
    CHECK(t.train_executor == "graph");
    CHECK(t.test_executor == "eager");
    CHECK(t.load_seconds == 0.1);
    CHECK(t.setup_seconds == 0.05);
    CHECK(t.capture_seconds == 0.2);
    CHECK(t.train_seconds == 0.78);
    CHECK(t.test_seconds == 0.021);
    CHECK(t.other_seconds == 2.949);
    CHECK(t.decode_seconds == 0.15);
    CHECK(t.context_seconds == 0.3);
    CHECK(t.graph_capture_seconds == 0.012);
    CHECK(t.first_calls_seconds == 0.35);
    CHECK(t.data_placement == "device");
    CHECK(t.batch_order == "sequential");
  }
}

TEST_CASE("the golden results file is written back unchanged", "[json_io]") {
  const std::string path = graphbench::testing::golden_path("results_golden.json");
  const json written = to_json(read_results_file(path));
  CHECK(written == read_json(path));
  // Through text as well: what a writer dumps reads back to the same document.
  CHECK(to_json(report_from_json(json::parse(written.dump(2)), "x.json")) == written);
}

TEST_CASE("a report built in code survives a round trip", "[json_io]") {
  RunReport report;
  report.environment.schema_version = graphbench::kResultsSchemaVersion;
  report.environment.tool_version = "9.9.9";
  report.environment.device = "cpu";
  report.environment.sm_count = 0;
  report.environment.copy_bandwidth_gbps = 12.25;
  graphbench::ResultRecord r;
  r.case_name = "a/b~c";  // characters that JSON pointers escape
  r.workload = "gelu";
  r.variant = "eager";
  r.kind = RecordKind::kBenchmark;
  r.mode = Mode::kInference;
  r.dtype = "bfloat16";
  r.device = "cpu";
  r.params = {{"shape", {3, 4}}, {"approximate", "tanh"}};
  r.steps_per_sample = 1LL << 40;
  r.samples_us = {0.1, 1.0 / 3.0, 2.5e-7, 12345.678901234567};
  r.host_samples_us = {0.2, 0.4, 0.3};
  r.stats = graphbench::stats::summarize(r.samples_us);
  r.host_stats = graphbench::stats::summarize(r.host_samples_us);
  r.rel_noise = std::numeric_limits<double>::infinity();  // fewer than 6 samples
  r.min_samples = 10;
  r.speedup_ci95 = graphbench::stats::Interval{0.9, 1.1};
  r.sm_clock_end_mhz = 1500.0;  // start unknown
  r.roofline = graphbench::Roofline{1.0, 2.0, 3.0, 0.25, 5.0};
  r.counters = {{"negative", -3}, {"big", 1LL << 50}};
  r.warnings = {"one", "two"};
  r.published = graphbench::PublishedComparison{std::nullopt, 10.0, std::nullopt, "src", "dev"};
  report.records.push_back(r);

  const json written = to_json(report);
  CHECK(written.at("records").at(0).at("rel_noise").is_null());
  const RunReport back = report_from_json(json::parse(written.dump()), "mem.json");
  CHECK(to_json(back) == written);

  CHECK(back.environment.schema_version == graphbench::kResultsSchemaVersion);
  CHECK(back.environment.tool_version == "9.9.9");
  CHECK(back.environment.copy_bandwidth_gbps == 12.25);
  const auto& b = back.records.at(0);
  CHECK(b.case_name == "a/b~c");
  CHECK(b.params == r.params);
  CHECK(b.steps_per_sample == r.steps_per_sample);
  CHECK(b.samples_us == r.samples_us);  // bit for bit
  CHECK(b.host_samples_us == r.host_samples_us);
  REQUIRE(b.stats.has_value());
  CHECK(b.stats->count == r.stats->count);
  CHECK(b.stats->median == r.stats->median);
  CHECK(b.stats->q1 == r.stats->q1);
  CHECK(b.stats->q3 == r.stats->q3);
  CHECK(b.stats->iqr == r.stats->iqr);
  CHECK(b.stats->min == r.stats->min);
  CHECK(b.stats->max == r.stats->max);
  CHECK(b.stats->mean == r.stats->mean);
  CHECK(b.stats->stddev == r.stats->stddev);
  CHECK(b.stats->cv == r.stats->cv);
  REQUIRE(b.host_stats.has_value());
  CHECK(b.host_stats->count == r.host_stats->count);
  CHECK(b.host_stats->median == r.host_stats->median);
  CHECK(b.host_stats->q1 == r.host_stats->q1);
  CHECK(b.host_stats->q3 == r.host_stats->q3);
  CHECK(b.host_stats->stddev == r.host_stats->stddev);
  CHECK(std::isinf(b.rel_noise));
  CHECK(b.min_samples == 10);
  CHECK(graphbench::has_too_few_samples(b));  // 4 samples of the 10 asked for
  CHECK_FALSE(b.speedup_vs_eager.has_value());
  REQUIRE(b.speedup_ci95.has_value());
  CHECK(b.speedup_ci95->low == 0.9);
  CHECK(b.speedup_ci95->high == 1.1);
  CHECK_FALSE(b.sm_clock_start_mhz.has_value());
  CHECK(b.sm_clock_end_mhz == 1500.0);
  REQUIRE(b.roofline.has_value());
  CHECK(b.roofline->bandwidth_share == 0.25);
  CHECK(b.counters == r.counters);
  CHECK(b.warnings == r.warnings);
  REQUIRE(b.published.has_value());
  CHECK_FALSE(b.published->speedup.has_value());
  CHECK(b.published->eager_us == 10.0);
  CHECK(b.published->source == "src");
}

TEST_CASE("a minimal document reads with defaults", "[json_io]") {
  const RunReport report = report_from_json(minimal_document(), "min.json");
  CHECK(report.environment.schema_version == 1);
  CHECK(report.environment.host.empty());
  REQUIRE(report.records.size() == 1);
  const auto& r = report.records[0];
  CHECK(r.case_name == "c");
  CHECK(r.params == json::object());
  CHECK(r.reason.empty());
  CHECK(r.samples_us.empty());
  CHECK_FALSE(r.stats.has_value());
  CHECK(r.rel_noise == 0.0);
  CHECK_FALSE(r.training.has_value());
}

TEST_CASE("bad documents give exact messages", "[json_io]") {
  json doc = minimal_document();
  json& rec = doc["records"][0];

  SECTION("samples that are not an array") {
    rec["samples_us"] = "x";
    CHECK(document_error(doc) ==
          "base.json: /records/0/samples_us: expected an array of numbers, got \"x\"");
  }
  SECTION("a sample that is not a number") {
    rec["samples_us"] = {1.0, "x"};
    CHECK(document_error(doc) == "base.json: /records/0/samples_us/1: expected a number, got \"x\"");
  }
  SECTION("a missing required field") {
    rec.erase("case");
    CHECK(document_error(doc) == "base.json: /records/0: missing required key \"case\"");
  }
  SECTION("a mistyped string") {
    rec["variant"] = 3;
    CHECK(document_error(doc) == "base.json: /records/0/variant: expected a string, got 3");
  }
  SECTION("an unknown status") {
    rec["status"] = "done";
    CHECK(document_error(doc) ==
          "base.json: /records/0/status: expected \"ok\" or \"skipped\" or \"failed\", got \"done\"");
  }
  SECTION("a fractional integer") {
    rec["steps_per_sample"] = 1.5;
    CHECK(document_error(doc) ==
          "base.json: /records/0/steps_per_sample: expected a non-negative integer or null, got 1.5");
  }
  SECTION("a counter that is not an integer") {
    rec["counters"] = {{"replays", "many"}};
    CHECK(document_error(doc) ==
          "base.json: /records/0/counters/replays: expected an integer, got \"many\"");
  }
  SECTION("a bad epoch in a training summary") {
    rec["training"] = {{"epochs", json::array({json{{"epoch", 1}}, json{{"epoch", -2}}})}};
    CHECK(document_error(doc) ==
          "base.json: /records/0/training/epochs/1/epoch: expected a non-negative integer, got -2");
  }
  SECTION("a bad interval") {
    rec["speedup_ci95"] = {1.0};
    CHECK(document_error(doc) ==
          "base.json: /records/0/speedup_ci95: expected [low, high] (two numbers) or null, got "
          "[1.0]");
  }
  SECTION("records that are not an array") {
    doc["records"] = json::object();
    CHECK(document_error(doc) == "base.json: /records: expected an array of records, got {}");
  }
  SECTION("a record that is not an object") {
    doc["records"] = {42};
    CHECK(document_error(doc) == "base.json: /records/0: expected an object, got 42");
  }
  SECTION("another tool's file") {
    doc["tool"] = "asv";
    CHECK(document_error(doc) == "base.json: /tool: expected \"graphbench\", got \"asv\"");
  }
  SECTION("schema_version missing") {
    doc.erase("schema_version");
    CHECK(document_error(doc) == "base.json: missing required key \"schema_version\"");
  }
  SECTION("schema_version newer than this binary") {
    const int newer = graphbench::kResultsSchemaVersion + 1;
    doc["schema_version"] = newer;
    CHECK(document_error(doc) == "base.json: /schema_version: schema version " + std::to_string(newer) +
                               " is newer than the version this graphbench reads (" +
                               std::to_string(graphbench::kResultsSchemaVersion) +
                               "); use a newer graphbench");
  }
  SECTION("schema_version mistyped") {
    doc["schema_version"] = "1";
    CHECK(document_error(doc) == "base.json: /schema_version: expected a positive integer, got \"1\"");
    doc["schema_version"] = 0;
    CHECK(document_error(doc) == "base.json: /schema_version: expected a positive integer, got 0");
  }
  SECTION("not an object at the top") {
    CHECK(document_error(json::array()) == "base.json: expected an object, got []");
  }
}

TEST_CASE("file errors name the file", "[json_io]") {
  const graphbench::testing::ScratchDir dir("graphbench-json-io-test");
  const std::string missing = dir.write("unused", "") + ".absent";
  CHECK(input_error_of([&] { read_results_file(missing); }) ==
        missing + ": cannot open results file: No such file or directory");

  const std::string broken = dir.write("broken.json", "{\n  \"a\": 1,\n  x\n}\n");
  const std::string message = input_error_of([&] { read_results_file(broken); });
  const std::string prefix = broken + ": invalid JSON at line 3, column 3: ";
  CHECK(message.substr(0, prefix.size()) == prefix);
  CHECK(message.find("syntax error") != std::string::npos);

  const std::string empty = dir.write("empty.json", "");
  const std::string empty_prefix = empty + ": invalid JSON at line 1, column 1: ";
  CHECK(input_error_of([&] { read_results_file(empty); }).substr(0, empty_prefix.size()) ==
        empty_prefix);

  const std::string newer = dir.write("newer.json", R"({"schema_version": 99, "records": []})");
  CHECK(input_error_of([&] { read_results_file(newer); }).substr(0, newer.size() + 37) ==
        newer + ": /schema_version: schema version 99 ");
}

TEST_CASE("absent values are written as null, never as 0", "[json_io]") {
  RunReport report;  // a CPU run: no GPU facts, no copy bandwidth
  report.environment.device = "cpu";
  graphbench::ResultRecord skipped;
  skipped.case_name = "c";
  skipped.variant = "graph";
  skipped.status = RecordStatus::kSkipped;
  report.records.push_back(skipped);
  graphbench::ResultRecord timed = skipped;
  timed.variant = "eager";
  timed.status = RecordStatus::kOk;
  timed.samples_us = {1.0, 2.0, 3.0};
  timed.stats = graphbench::stats::summarize(timed.samples_us);
  timed.steps_per_sample = 10;
  timed.roofline = graphbench::Roofline{8.0, 1.0, 2.0, std::nullopt, 0.5};  // no copy bandwidth on the CPU
  report.records.push_back(timed);
  graphbench::ResultRecord untrained = skipped;
  untrained.variant = "eager";
  untrained.case_name = "t";
  untrained.kind = RecordKind::kTraining;
  untrained.status = RecordStatus::kFailed;
  untrained.training = graphbench::TrainingSummary{};  // no step ran: no median step
  report.records.push_back(untrained);

  const json written = to_json(report);
  const json& env = written.at("environment");
  for (const char* key : {"sm_count", "gpu_memory_gib", "sm_clock_max_mhz", "copy_bandwidth_gbps", "cpu_count", "cpu_mhz",
                          "cpu_scaling_enabled"}) {
    INFO(key);
    CHECK(env.at(key).is_null());
  }
  const json& s = written.at("records").at(0);
  for (const char* key : {"steps_per_sample", "median_us", "rel_noise", "speedup_vs_eager", "roofline", "capture_ms"}) {
    INFO(key);
    CHECK(s.at(key).is_null());
  }
  CHECK(written.at("records").at(1).at("roofline").at("bandwidth_share").is_null());
  CHECK(written.at("records").at(1).at("roofline").at("achieved_gbps") == 2.0);
  CHECK(written.at("records").at(2).at("training").at("median_step_us").is_null());
  CHECK(written.at("interrupted") == false);
  CHECK(written.at("interrupted_by").is_null());

  const RunReport back = report_from_json(written, "mem.json");
  CHECK_FALSE(back.environment.copy_bandwidth_gbps.has_value());
  CHECK_FALSE(back.records[1].roofline->bandwidth_share.has_value());
  CHECK(back.records[0].steps_per_sample == 0);
  CHECK(to_json(back) == written);
}

TEST_CASE("an interrupted run and a training run's samples survive a round trip", "[json_io]") {
  RunReport report;
  report.interrupted = true;
  report.interrupted_by = "SIGTERM";
  graphbench::ResultRecord r;
  r.case_name = "mnist";
  r.variant = "graph";
  r.kind = RecordKind::kTraining;
  r.samples_us = {230.0, 228.5};
  r.steps_per_sample = 100;
  r.training = graphbench::TrainingSummary{};
  r.training->train_steps = 200;
  r.training->median_step_us = 229.25;
  report.records.push_back(r);
  const json written = to_json(report);
  CHECK(written.at("interrupted") == true);
  CHECK(written.at("interrupted_by") == "SIGTERM");
  CHECK_FALSE(written.at("records").at(0).at("training").contains("step_samples_us"));  // once, as samples_us
  const RunReport back = report_from_json(written, "mem.json");
  CHECK(back.interrupted);
  CHECK(back.interrupted_by == "SIGTERM");
  CHECK(back.records[0].training->step_samples_us == r.samples_us);
  CHECK(back.records[0].training->steps_per_block == 100);
  CHECK(to_json(back) == written);
}

TEST_CASE("records without the newer fields read as before, their method taken from the variant", "[json_io]") {
  json doc = read_json(graphbench::testing::golden_path("results_golden.json"));
  for (auto& r : doc["records"]) {
    for (const char* key : {"method", "issue_samples_us", "issue_median_us", "host_bound", "l2", "profile",
                            "graphs", "memory"}) {
      r.erase(key);
    }
  }
  doc["records"][0]["variant"] = "graph";
  doc["records"][1]["variant"] = "reference+graph:replay";
  doc["records"][2]["variant"] = "not-a-known-variant";
  const RunReport report = report_from_json(doc, "old.json");
  CHECK(report.records[0].method == StepMethod::kFeedReplay);
  CHECK(report.records[1].method == StepMethod::kReplay);
  CHECK(report.records[2].method == StepMethod::kUnknown);
  CHECK(report.records[0].issue_samples_us.empty());
  CHECK_FALSE(report.records[0].host_bound.has_value());
  CHECK_FALSE(report.records[0].profile.has_value());
  CHECK(report.records[0].graphs.empty());
  CHECK_FALSE(report.records[0].memory.has_value());
}

TEST_CASE("the newer record fields are checked when read", "[json_io]") {
  const auto error_with = [](const std::string& key, const json& value) {
    json doc = read_json(graphbench::testing::golden_path("results_golden.json"));
    doc["records"][0][key] = value;
    try {
      report_from_json(doc, "bad.json");
    } catch (const graphbench::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error_with("host_bound", "yes") == "bad.json: /records/0/host_bound: expected true, false or null, got \"yes\"");
  CHECK(error_with("l2", "warm") == "bad.json: /records/0/l2: expected \"hot\" or \"cold\", got \"warm\"");
  CHECK(error_with("kind", "bench") == "bad.json: /records/0/kind: expected \"benchmark\" or \"training\", got \"bench\"");
  CHECK(error_with("mode", "eval") == "bad.json: /records/0/mode: expected \"inference\" or \"train\", got \"eval\"");
  CHECK(error_with("method", "replay twice") ==
        "bad.json: /records/0/method: expected \"\" or \"run\" or \"feed+run\" or \"feed+replay\" or \"replay\", got \"replay twice\"");
  CHECK(error_with("graphs", json::object()) == "bad.json: /records/0/graphs: expected an array of graphs, got {}");
  CHECK(error_with("graphs", json::array({{{"kernel_nodes", -1}}})) ==
        "bad.json: /records/0/graphs/0/kernel_nodes: expected a non-negative integer or null, got -1");
  CHECK(error_with("profile", json{{"kernels_per_step", "five"}}) ==
        "bad.json: /records/0/profile/kernels_per_step: expected a number, got \"five\"");
}

TEST_CASE("the data-parallel figures survive a round trip, and files before the exposed all-reduce read without it",
          "[json_io]") {
  RunReport report;
  graphbench::ResultRecord r;
  r.case_name = "ddp";
  r.workload = "linear_dropout";
  r.variant = "graph";
  r.kind = RecordKind::kBenchmark;
  r.mode = Mode::kTrain;
  r.dtype = "float32";
  r.device = "cuda";
  graphbench::DataParallelFigures d;
  d.world_size = 2;
  d.backend = "nccl";
  d.backend_version = "2.27.5";
  d.backend_settings = std::map<std::string, std::string>{{"NCCL_MIN_NCHANNELS", "32"}, {"NCCL_NVLS_ENABLE", "0"}};
  d.rank_median_us = {1100.5, 1101.25};
  d.slowest_rank = 1;
  d.slowest_median_us = 1101.25;
  d.buckets = 4;
  d.grad_dtype = "bfloat16";
  d.bucket_cap_bytes = 8 << 20;
  d.overlapped = true;
  d.chunk_cap_bytes = 8 << 20;
  d.chunked_gradients = {{"fc1.weight", {512, 512, 512, 512}}};
  d.grad_transport = "copy-engine";
  d.all_reduce_us = 120.5;
  d.no_all_reduce_us = 1000.25;
  d.exposed_all_reduce_us = 101.0;
  d.one_rank_us = 990.5;
  d.scaling_efficiency = 990.5 / 1101.25;
  d.scaling_ci95 = graphbench::stats::Interval{0.875, 0.9125};
  r.data_parallel = d;
  report.records.push_back(r);
  const json written = to_json(report);
  const json& block = written.at("records").at(0).at("data_parallel");
  CHECK(block.at("exposed_all_reduce_us") == 101.0);
  CHECK(block.at("grad_dtype") == "bfloat16");
  const RunReport back = report_from_json(json::parse(written.dump()), "mem.json");
  CHECK(to_json(back) == written);
  const graphbench::DataParallelFigures& b = *back.records.at(0).data_parallel;
  CHECK(b.overlapped);
  CHECK(b.bucket_cap_bytes == 8 << 20);
  CHECK(b.no_all_reduce_us == 1000.25);
  CHECK(block.at("scaling_efficiency_ci95") == json::array({0.875, 0.9125}));
  REQUIRE(b.scaling_ci95.has_value());
  CHECK(b.scaling_ci95->low == 0.875);
  CHECK(b.scaling_ci95->high == 0.9125);
  CHECK(b.chunk_cap_bytes == 8 << 20);
  REQUIRE(b.chunked_gradients.size() == 1);
  CHECK(b.chunked_gradients[0].param == "fc1.weight");
  CHECK(b.chunked_gradients[0].rows == std::vector<std::int64_t>{512, 512, 512, 512});
  CHECK(b.backend_version == "2.27.5");
  CHECK(b.backend_settings == d.backend_settings);
  CHECK_FALSE(block.contains("sm_carveout"));  // the lever is gone (docs/results.md)
  CHECK(block.at("grad_transport") == "copy-engine");
  CHECK(b.grad_transport == "copy-engine");
  CHECK(block.at("backend_settings") == json::parse(R"({"NCCL_MIN_NCHANNELS": "32", "NCCL_NVLS_ENABLE": "0"})"));
  // Recorded and none set is not the same as not recorded.
  graphbench::DataParallelFigures none_set = d;
  none_set.backend_settings = std::map<std::string, std::string>{};
  report.records[0].data_parallel = none_set;
  const json written_none = to_json(report);
  CHECK(written_none.at("records").at(0).at("data_parallel").at("backend_settings") == json::object());
  const auto none_back = report_from_json(written_none, "none.json").records.at(0).data_parallel->backend_settings;
  REQUIRE(none_back.has_value());
  CHECK(none_back->empty());
  CHECK(block.at("chunked_gradients") == json::parse(R"([{"param": "fc1.weight", "rows": [512, 512, 512, 512]}])"));

  // A file written before these fields: the all-reduce after backward, float32, nothing exposed.
  json old = written;
  for (const char* key : {"grad_dtype", "bucket_cap_bytes", "overlapped", "no_all_reduce_us", "exposed_all_reduce_us",
                          "chunk_cap_bytes", "chunked_gradients", "backend_version", "backend_settings",
                          "grad_transport"}) {
    old["records"][0]["data_parallel"].erase(key);
  }
  const graphbench::DataParallelFigures o = *report_from_json(old, "old.json").records.at(0).data_parallel;
  CHECK(o.grad_dtype == "float32");
  CHECK(o.bucket_cap_bytes == 0);
  CHECK(o.chunk_cap_bytes == 0);
  CHECK(o.chunked_gradients.empty());
  CHECK_FALSE(o.overlapped);
  CHECK_FALSE(o.exposed_all_reduce_us.has_value());
  CHECK(o.backend_version.empty());
  CHECK_FALSE(o.backend_settings.has_value());
  CHECK(o.grad_transport == "collective");
  // Files written while "grad_sm_carveout" existed carry sm_carveout: it reads, and is ignored.
  for (const json& carveout : {json(16), json(0), json(-16)}) {
    json with_carveout = written;
    with_carveout["records"][0]["data_parallel"]["sm_carveout"] = carveout;
    const RunReport read = report_from_json(with_carveout, "carveout.json");
    REQUIRE(read.records.at(0).data_parallel.has_value());
    CHECK(read.records.at(0).data_parallel->slowest_median_us == 1101.25);
    CHECK(to_json(read) == written);
  }
  json bad_settings = written;
  bad_settings["records"][0]["data_parallel"]["backend_settings"]["NCCL_MIN_NCHANNELS"] = 32;
  CHECK(document_error(bad_settings) ==
        "base.json: /records/0/data_parallel/backend_settings/NCCL_MIN_NCHANNELS: expected a string, got 32");
  bad_settings["records"][0]["data_parallel"]["backend_settings"] = json::array();
  CHECK(document_error(bad_settings) ==
        "base.json: /records/0/data_parallel/backend_settings: expected an object of strings, got []");
  json bad_rows = written;
  bad_rows["records"][0]["data_parallel"]["chunked_gradients"][0]["rows"][1] = 0;
  CHECK(document_error(bad_rows) ==
        "base.json: /records/0/data_parallel/chunked_gradients/0/rows/1: expected a positive integer, got 0");
  old["records"][0]["data_parallel"]["overlapped"] = "yes";
  CHECK(document_error(old) == "base.json: /records/0/data_parallel/overlapped: expected true, false or null, got \"yes\"");
}

TEST_CASE("json: a sweep's shared pool is read back from the sweeps array, so a report written again keeps it") {
  RunReport report;
  for (const std::int64_t value : {1, 2, 4}) {
    for (const char* variant : {"eager", "graph"}) {
      auto r = graphbench::testing::benchmark_record("a[batch=" + std::to_string(value) + "]", variant, "cuda");
      r.sweep = graphbench::SweepPoint{"a", "batch", value};
      r.stats = graphbench::stats::Summary{};
      r.stats->median = std::string(variant) == "eager" ? 100.0 : 40.0;
      if (std::string(variant) == "graph") {
        r.capture_ms = 2.0;
        r.speedup_vs_eager = 2.5;
        r.speedup_ci95 = graphbench::stats::Interval{2.4, 2.6};
      }
      report.records.push_back(r);
    }
  }
  report.shared_pools.push_back({"a", "graph", {4, 1}, 8 << 20, ""});
  const json written = to_json(report);
  REQUIRE(written.at("sweeps").size() == 1);
  const RunReport back = report_from_json(json::parse(written.dump()), "mem.json");
  REQUIRE(back.shared_pools.size() == 1);
  CHECK(back.shared_pools[0].group == "a");
  CHECK(back.shared_pools[0].variant == "graph");
  CHECK(back.shared_pools[0].reserved_bytes == (8 << 20));
  CHECK(to_json(back) == written);

  report.shared_pools = {{"a", "graph", {4, 1}, std::nullopt, "out of memory"}};
  const RunReport failed = report_from_json(to_json(report), "mem.json");
  REQUIRE(failed.shared_pools.size() == 1);
  CHECK(failed.shared_pools[0].error == "out of memory");
  CHECK_FALSE(failed.shared_pools[0].reserved_bytes);
}
