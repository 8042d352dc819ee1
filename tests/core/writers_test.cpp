// The CSV and Markdown writers against golden files (tests/golden/report_golden.*), and the atomic
// file writer. Regenerate the golden files after an intended change with
//   GRAPHBENCH_UPDATE_GOLDEN=1 ./build/tests/graphbench_core_tests "writers:*"
// and review the diff.
#include "support/catch.h"
#include "support/skip.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/atomic_file.h"
#include "graphbench/core/report/writers.h"
#include "graphbench/core/workload/variant.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace graphbench;

stats::Summary summary(std::size_t count, double median, double iqr, double min, double max,
                       double cv) {
  stats::Summary s;
  s.count = count;
  s.median = median;
  s.q1 = median - iqr / 2;
  s.q3 = median + iqr / 2;
  s.iqr = iqr;
  s.min = min;
  s.max = max;
  s.mean = median;
  s.stddev = cv * median;
  s.cv = cv;
  return s;
}

ResultRecord record(const std::string& case_name, const std::string& workload,
                    const std::string& variant, const std::string& kind, const std::string& mode) {
  ResultRecord r;
  r.case_name = case_name;
  r.workload = workload;
  r.variant = variant;
  r.kind = *from_string<RecordKind>(kind);
  r.mode = *from_string<Mode>(mode);
  r.dtype = "float32";
  r.device = "cuda";
  if (const Variant* v = Variant::find(variant)) r.method = v->method();
  return r;
}

RunReport sample_report() {
  RunReport report;
  Environment& env = report.environment;
  env.suite = "blog";
  env.device = "cuda";
  env.gpu_name = "NVIDIA H100 80GB HBM3";
  env.driver_version = "580.159.04";
  env.cuda_runtime_version = "13.0";
  env.libtorch_version = "2.11.0";
  env.copy_bandwidth_gbps = 3012.5;

  ResultRecord eager = record("gelu-small", "gelu", "eager", "benchmark", "inference");
  eager.steps_per_sample = 32;
  eager.stats = summary(40, 49.53, 0.61, 48.9, 51.2, 0.0123);
  eager.host_stats = summary(40, 50.1, 0.7, 49.5, 52.0, 0.013);
  eager.speedup_vs_eager = 1.0;
  eager.speedup_ci95 = stats::Interval{0.98, 1.02};
  eager.roofline = Roofline{1204224, 752640, 24.31, 0.00807, 0.0152};
  eager.published = PublishedComparison{std::nullopt, 70.9, std::nullopt, "blog", "Tesla K80"};
  eager.issue_median_us = 48.7;
  eager.host_bound = true;
  eager.back_to_back_us = 6.8;
  eager.l2 = L2Cache::kHot;
  KernelProfile eager_profile;
  eager_profile.steps = 10;
  eager_profile.kernels_per_step = 5;
  eager_profile.busy_us_per_step = 6.2;
  eager_profile.busy_share = 6.2 / 49.53;
  eager.profile = eager_profile;
  eager.memory = MemoryUse{9437184, 23068672, 2408448, std::nullopt};
  eager.sm_clock_start_mhz = 1980;
  eager.sm_clock_end_mhz = 1980;
  GpuConditions eager_gpu;
  eager_gpu.memory_clock_mhz = {2619, 2619};
  eager_gpu.temperature_c = {40, 44};
  eager_gpu.power_w = {120.5, 310.25};
  eager_gpu.sm_clock_mean_mhz = 1975;
  eager_gpu.sm_clock_reference_mhz = 1980;
  eager_gpu.throttle_reasons = std::vector<std::string>{};
  eager.gpu_conditions = eager_gpu;
  EnergyPerStep eager_energy;
  eager_energy.joules_per_step = 0.0155;
  eager_energy.joules = 7.75;
  eager_energy.steps = 500;
  eager_energy.seconds = 0.52;
  eager_energy.update_interval_ms = 26;
  eager_energy.vs_eager = 1.0;
  eager.energy = eager_energy;
  report.records.push_back(eager);

  ResultRecord graph = record("gelu-small", "gelu", "graph", "benchmark", "inference");
  graph.steps_per_sample = 128;
  graph.stats = summary(57, 7.85, 0.05, 7.8, 7.9, 0.009);
  graph.host_stats = summary(57, 8.15, 0.06, 8.1, 8.2, 0.01);
  graph.speedup_vs_eager = 6.309554140127389;
  graph.speedup_ci95 = stats::Interval{6.1, 6.5234};
  graph.capture_ms = 1.2;
  graph.roofline = Roofline{1204224, 752640, 153.4, 0.0509, 0.0959};
  graph.published = PublishedComparison{1.09, 70.9, 64.9, "PyTorch 1.10 blog", "Tesla K80"};
  graph.warnings = {"IQR is 12% of the median | noisy"};
  graph.issue_median_us = 3.1;
  graph.host_bound = false;
  graph.back_to_back_us = 7.7;
  graph.l2 = L2Cache::kHot;
  KernelProfile graph_profile;
  graph_profile.steps = 10;
  graph_profile.kernels_per_step = 5;
  graph_profile.copies_per_step = 1;
  graph_profile.busy_us_per_step = 6.9;
  graph_profile.busy_share = 6.9 / 7.85;
  graph.profile = graph_profile;
  graph.graphs = {GraphFacts{5, 5, 2097152, 0}};
  graph.memory = MemoryUse{11534336, 23068672, 0, 2097152};
  graph.sm_clock_start_mhz = 1980;
  graph.sm_clock_end_mhz = 1755;
  GpuConditions graph_gpu = eager_gpu;
  graph_gpu.sm_clock_mean_mhz = 1800;
  graph_gpu.throttle_reasons = std::vector<std::string>{"SW power cap", "HW slowdown"};
  graph.gpu_conditions = graph_gpu;
  EnergyPerStep graph_energy = eager_energy;
  graph_energy.joules_per_step = 0.0031;
  graph_energy.joules = 9.92;
  graph_energy.steps = 3200;
  graph_energy.vs_eager = 0.2;
  graph.energy = graph_energy;
  report.records.push_back(graph);

  ResultRecord replay = record("gelu-small", "gelu", "graph:replay", "benchmark", "inference");
  replay.steps_per_sample = 200;
  replay.stats = summary(57, 5.9, 0.04, 5.85, 5.97, 0.007);
  replay.speedup_vs_eager = 8.39;
  replay.speedup_ci95 = stats::Interval{8.3, 8.45};
  replay.issue_median_us = 2.2;
  replay.host_bound = false;
  replay.graphs = {GraphFacts{5, 5, std::nullopt, std::nullopt}};
  EnergyPerStep replay_energy;
  replay_energy.unavailable = "too short to resolve: the energy counter updated 12 times in 5.00 s of steps, 20 are needed";
  replay.energy = replay_energy;
  report.records.push_back(replay);

  ResultRecord jit = record("gelu-small", "gelu", "jit", "benchmark", "inference");
  jit.status = RecordStatus::kSkipped;
  jit.reason = "TorchScript is not available in this build";
  report.records.push_back(jit);

  ResultRecord failed = record("linear-dropout", "linear_dropout", "graph", "benchmark", "train");
  failed.status = RecordStatus::kFailed;
  failed.reason = "capture failed: \"operation not permitted\", stream is capturing";
  failed.steps_per_sample = 16;
  report.records.push_back(failed);

  ResultRecord training = record("mnist-train", "mnist", "graph", "training", "train");
  TrainingSummary summary_of_training;
  summary_of_training.epochs = {TrainingEpoch{1, 0.41, 0.01, 59584, 60000, 0.3921, 0.2051, 0.9},
                                TrainingEpoch{2, 0.40, 0.01, 59584, 60000, 0.2875, 0.1733, 0.938}};
  summary_of_training.total_seconds = 6.95;
  summary_of_training.median_step_us = 240.0;
  summary_of_training.train_steps = 1874;
  summary_of_training.train_executor = "graph";
  summary_of_training.test_executor = "eager";
  summary_of_training.load_seconds = 0.09;
  summary_of_training.capture_seconds = 0.12;
  summary_of_training.train_seconds = 0.81;
  summary_of_training.test_seconds = 0.02;
  training.training = summary_of_training;
  training.published = PublishedComparison{6.4, std::nullopt, std::nullopt, "tutorial", "A100"};
  training.warnings = {"10 short batches not trained on"};
  report.records.push_back(training);

  ResultRecord no_data = record("mnist-train", "mnist", "eager", "training", "train");
  no_data.status = RecordStatus::kFailed;
  no_data.reason = "no MNIST files in /data | set --data-dir";
  report.records.push_back(no_data);
  return report;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Compares `actual` with the golden file, or rewrites it when GRAPHBENCH_UPDATE_GOLDEN is set.
void check_golden(const std::string& name, const std::string& actual) {
  const auto path = testing::golden_path(name);
  if (std::getenv("GRAPHBENCH_UPDATE_GOLDEN") != nullptr) write_file_atomically(path, actual);
  const std::string expected = read_file(path);
  INFO("golden file " << path);
  CHECK(actual == expected);
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("graphbench-writers-test-{}", ::getpid());
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
};

std::vector<std::string> entries(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string error_of_write(const fs::path& path, const std::string& content) {
  try {
    write_file_atomically(path, content);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("writers: CSV matches the golden file") {
  check_golden("report_golden.csv", render_csv(sample_report()));
}

TEST_CASE("writers: Markdown matches the golden file") {
  check_golden("report_golden.md", render_markdown(sample_report()));
}

TEST_CASE("writers: Google Benchmark JSON matches the golden file") {
  // Environment facts that differ between machines are fixed for the golden file.
  RunReport report = sample_report();
  report.environment.date_utc = "2026-11-22T10:00:00Z";
  report.environment.host = "gpu-box";
  report.environment.command_line = "build/graphbench --workload blog --format gbench";
  report.environment.build_type = "Release";
  report.environment.cpu_count = 16;
  report.environment.cpu_mhz = 2000.0;
  report.environment.cpu_scaling_enabled = false;
  // Samples for the first two records: each becomes a repetition, then the aggregates.
  report.records[0].samples_us = {49.53, 48.9, 51.2, 49.6, 49.4};
  report.records[0].host_samples_us = {50.1, 49.5, 52.0, 50.2, 50.0};
  report.records[1].samples_us = {7.85, 7.8, 7.9, 7.84, 7.86};
  check_golden("report_golden.gbench.json", to_gbench_json(report).dump(2) + "\n");
}

TEST_CASE("writers: names and reasons with line breaks stay on one Markdown line") {
  RunReport report;
  report.environment.suite = "s";
  report.environment.device = "cpu";
  ResultRecord r = record("two\nlines", "gelu", "eager", "benchmark", "inference");
  r.device = "cpu";
  r.status = RecordStatus::kFailed;
  r.reason = "first\r\nsecond | third\x1b[2J";
  r.warnings = {"warning\n- not a list item"};
  report.records.push_back(r);
  const std::string md = render_markdown(report);
  CHECK(md.find("| two lines | eager | run | FAILED: first  second \\| third [2J |") != std::string::npos);
  CHECK(md.find("- two lines / eager: warning - not a list item\n") != std::string::npos);
  CHECK(md.find("\n- not a list item") == std::string::npos);
  CHECK(md.find('\x1b') == std::string::npos);
}

TEST_CASE("writers: the Data-parallel table has the step without all-reduce and the exposed all-reduce") {
  RunReport report;
  report.environment.suite = "ddp";
  report.environment.device = "cuda";
  ResultRecord r = record("ddp-large", "linear_dropout", "graph", "benchmark", "train");
  DataParallelFigures d;
  d.world_size = 2;
  d.backend = "nccl";
  d.samples_per_rank = 640;
  d.rank_median_us = {1100.0, 1110.0};
  d.median_us = 1105.0;
  d.slowest_rank = 1;
  d.slowest_median_us = 1110.0;
  d.samples_per_second = 1153153.0;
  d.buckets = 4;
  d.bucket_cap_bytes = 8 << 20;
  d.overlapped = true;
  d.grad_dtype = "bfloat16";
  d.chunked_gradients = {{"fc1.weight", {512, 512, 512, 512}}};
  d.grad_transport = "copy-engine";
  d.all_reduce_us = 236.0;
  d.no_all_reduce_us = 995.0;
  d.exposed_all_reduce_us = 115.0;
  d.one_rank_us = 991.0;
  d.scaling_efficiency = 991.0 / 1110.0;
  d.scaling_ci95 = stats::Interval{0.874, 0.905};
  d.params_identical = true;
  r.data_parallel = d;
  report.records.push_back(r);
  ResultRecord above = r;  // an N-rank step faster than one rank alone is marked
  above.variant = "eager";
  above.data_parallel->scaling_efficiency = 1.04;
  above.data_parallel->scaling_ci95 = stats::Interval{0.99, 1.08};
  report.records.push_back(above);
  const std::string md = render_markdown(report);
  CHECK(md.find("| step median / slowest rank (us) | without all-reduce (us) | exposed all-reduce (us) | "
                "all-reduce alone (us) | gradients |") != std::string::npos);
  CHECK(md.find("| ddp-large | graph | 2 (nccl) | 1105 / 1110 (rank 1) | 995 | 115 | 236 | overlapped, 4 buckets of "
                "<= 8 MiB, fc1.weight in 4 chunks, bfloat16, copy-engine all-reduce | 1153153 | 991 | 89% (87-90%) |") != std::string::npos);
  CHECK(md.find("| 991 | 104%* (99-108%) |") != std::string::npos);
  CHECK(md.find("the ratio of two medians, rank 0 alone's step") != std::string::npos);
  CHECK(md.find("Communication: nccl (its tuning variables were not recorded)\n") != std::string::npos);
}

TEST_CASE("writers: under the Data-parallel table, each distinct backend, version and tuning variables once") {
  RunReport report;
  report.environment.suite = "ddp";
  DataParallelFigures d;
  d.world_size = 2;
  d.backend = "nccl";
  d.backend_version = "2.27.5";
  d.backend_settings = std::map<std::string, std::string>{{"NCCL_NVLS_ENABLE", "0"}, {"NCCL_MIN_NCHANNELS", "32"}};
  for (const char* variant : {"eager", "graph"}) {
    ResultRecord r = record("ddp-large", "linear_dropout", variant, "benchmark", "train");
    r.data_parallel = d;
    report.records.push_back(r);
  }
  ResultRecord gloo = record("ddp-small", "linear_dropout", "eager", "benchmark", "train");
  d.backend = "gloo";
  d.backend_version.clear();
  d.backend_settings = std::map<std::string, std::string>{};
  gloo.data_parallel = d;
  report.records.push_back(gloo);
  const std::string md = render_markdown(report);
  const std::string nccl = "Communication: nccl 2.27.5, under NCCL_MIN_NCHANNELS=32, NCCL_NVLS_ENABLE=0\n";
  REQUIRE(md.find(nccl) != std::string::npos);
  CHECK(md.find(nccl, md.find(nccl) + 1) == std::string::npos);
  CHECK(md.find("Communication: gloo, no tuning variables set\n") != std::string::npos);
}

TEST_CASE("writers: an interrupted run says so at the top of the Markdown") {
  RunReport report;
  report.environment.suite = "s";
  report.environment.device = "cpu";
  report.interrupted = true;
  report.interrupted_by = "SIGINT";
  CHECK(render_markdown(report).find("**Interrupted by SIGINT:** only the cases below finished") != std::string::npos);
}

TEST_CASE("writers: a speedup from fewer samples than min_samples is marked, without an interval") {
  RunReport report;
  report.environment.suite = "s";
  report.environment.device = "cpu";
  ResultRecord r;
  r.case_name = "c";
  r.workload = "gelu";
  r.variant = "graph";
  r.kind = RecordKind::kBenchmark;
  r.samples_us = {10.0, 10.5, 11.0};
  r.stats = stats::summarize(r.samples_us);
  r.min_samples = 10;
  r.speedup_vs_eager = 23.36;
  report.records.push_back(r);
  const std::string md = render_markdown(report);
  CHECK(md.find("| 23.36x (no interval: 3 of 10 samples) |") != std::string::npos);
  CHECK(md.find("[23.36-23.36]") == std::string::npos);
}

TEST_CASE("writers: the CSV header is the one docs/results.md documents") {
  const std::string doc = read_file(testing::source_path("docs/results.md"));
  const std::string header = csv_header();
  CHECK(doc.find("```\n" + header + "\n```") != std::string::npos);
  CHECK(render_csv(RunReport{}) == header + "\n");
}

TEST_CASE("writers: Markdown without a GPU or records") {
  RunReport report;
  report.environment.suite = "ci";
  report.environment.device = "cpu";
  report.environment.libtorch_version = "1.13.1";
  CHECK(render_markdown(report) == "# graphbench: ci\n\nDevice: CPU, LibTorch 1.13.1\n\nNo results.\n");
}

TEST_CASE("writers: atomic write") {
  const TempDir dir;
  const fs::path target = dir.path / "out" / "results.csv";
  const std::string temporary_name = fmt::format(".results.csv.tmp-{}", ::getpid());

  SECTION("creates parent directories, writes, leaves no temporary file") {
    write_file_atomically(target, "a,b\n1,2\n");
    CHECK(read_file(target) == "a,b\n1,2\n");
    CHECK(entries(target.parent_path()) == std::vector<std::string>{"results.csv"});
  }
  SECTION("overwrites an existing file") {
    write_file_atomically(target, "old contents that are longer\n");
    write_file_atomically(target, "new\n");
    CHECK(read_file(target) == "new\n");
    CHECK(entries(target.parent_path()) == std::vector<std::string>{"results.csv"});
  }
  SECTION("writes empty content") {
    write_file_atomically(target, "");
    CHECK(fs::exists(target));
    CHECK(fs::file_size(target) == 0);
  }
  SECTION("a parent that is a file fails with the path in the message") {
    std::ofstream(dir.path / "blocker") << "x";
    const fs::path below = dir.path / "blocker" / "results.csv";
    const std::string error = error_of_write(below, "x");
    CHECK(error.rfind(below.string() + ": cannot write file (create directory ", 0) == 0);
    CHECK(error.find("Not a directory") != std::string::npos);
    CHECK(read_file(dir.path / "blocker") == "x");
  }
  SECTION("a failure leaves the old file intact") {
    write_file_atomically(target, "old\n");
    // Something that is not ours occupies the temporary name: creating it must fail.
    fs::create_directory(target.parent_path() / temporary_name);
    const std::string error = error_of_write(target, "new\n");
    CHECK(error == fmt::format("{}: cannot write file (create {}: Is a directory)", target.string(),
                               (target.parent_path() / temporary_name).string()));
    CHECK(read_file(target) == "old\n");
    CHECK(fs::is_directory(target.parent_path() / temporary_name));  // not removed: not ours
  }
  SECTION("a target that is a directory fails and the temporary file is removed") {
    fs::create_directories(target);
    const std::string error = error_of_write(target, "new\n");
    CHECK(error.rfind(target.string() + ": cannot write file (rename ", 0) == 0);
    CHECK(entries(target.parent_path()) == std::vector<std::string>{"results.csv"});
  }
}

TEST_CASE("writers: atomic write into a read-only directory fails and leaves the old file intact") {
  // root writes into read-only directories: nothing to check then.
  if (::geteuid() == 0) GRAPHBENCH_SKIP("running as root, which a read-only directory does not stop");
  const TempDir dir;
  const fs::path target = dir.path / "out" / "results.csv";
  write_file_atomically(target, "old\n");
  fs::permissions(target.parent_path(), fs::perms::owner_read | fs::perms::owner_exec);
  const std::string error = error_of_write(target, "new\n");
  fs::permissions(target.parent_path(), fs::perms::owner_all);
  CHECK(error.find(target.string() + ": cannot write file") == 0);
  CHECK(error.find("Permission denied") != std::string::npos);
  CHECK(read_file(target) == "old\n");
  CHECK(entries(target.parent_path()) == std::vector<std::string>{"results.csv"});
}

TEST_CASE("writers: a bandwidth above the measured copy bandwidth is marked cache-resident") {
  RunReport report = sample_report();
  ResultRecord& graph = report.records.at(1);
  REQUIRE(graph.roofline);
  graph.roofline->bandwidth_share = 1.11;  // a GELU replay whose 38 MB fit an H200's L2
  const std::string md = render_markdown(report);
  CHECK(md.find("(111.0%) cache-resident") != std::string::npos);
  graph.roofline->bandwidth_share = 0.96;
  CHECK(render_markdown(report).find("cache-resident") == std::string::npos);
}
