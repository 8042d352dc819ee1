// The result files as a set (src/graphbench/core/report/report_files.h): the output directory checked
// before a run, temporaries of killed runs removed, every format replaced together, no file of an
// earlier run left beside the new ones.
#include "support/catch.h"
#include "support/records.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/atomic_file.h"
#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/report_files.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace graphbench;

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("graphbench-report-files-test-{}", ::getpid());
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::vector<std::string> entries(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

RunReport report_of_suite(const std::string& suite) {
  RunReport report;
  report.environment.suite = suite;
  report.records.push_back(testing::benchmark_record("c", "eager"));
  return report;
}

// A pid that runs no process: past the kernel's pid_max.
constexpr int kDeadPid = 99999999;

}  // namespace

TEST_CASE("result set: formats parse, gbench included, unknown ones named", "[report]") {
  const OutputFormats all = parse_output_formats("json,csv,md,gbench");
  CHECK((all.json && all.csv && all.md && all.gbench));
  const OutputFormats defaults = parse_output_formats("json,csv,md");
  CHECK_FALSE(defaults.gbench);
  CHECK_THROWS_WITH(parse_output_formats("json,xml"), Catch::Contains("unknown format \"xml\""));
  // results.json comes with every selection: compare has something to read after any run.
  const OutputFormats gbench = parse_output_formats("gbench");
  CHECK((gbench.json && gbench.gbench && !gbench.csv && !gbench.md));
  CHECK(parse_output_formats("csv").json);
  CHECK_THROWS_WITH(parse_output_formats(""), Catch::Contains("no format given"));
}

TEST_CASE("result set: a new run replaces every file of the earlier one, whatever its format", "[report]") {
  const TempDir dir;
  const std::string out = dir.path.string();
  write_report_files(report_of_suite("old"), out, parse_output_formats("json,csv,md,gbench"));
  CHECK(entries(dir.path) == std::vector<std::string>{"results.csv", "results.gbench.json", "results.json", "results.md"});

  const auto written = write_report_files(report_of_suite("new"), out, parse_output_formats("json"));
  CHECK(written == std::vector<std::string>{(dir.path / "results.json").string()});
  // The CSV, Markdown and gbench files of the earlier run are gone: none can pass for this run's.
  CHECK(entries(dir.path) == std::vector<std::string>{"results.json"});
  CHECK(read_results_file((dir.path / "results.json").string()).environment.suite == "new");
}

TEST_CASE("result set: a write that fails leaves the earlier set whole and no temporary", "[report]") {
  const TempDir dir;
  const std::string out = dir.path.string();
  write_report_files(report_of_suite("old"), out, parse_output_formats("json,csv"));
  // Something that is not ours holds the Markdown file's temporary name: its write fails after
  // the JSON and CSV temporaries were written.
  const fs::path blocker = dir.path / fmt::format(".results.md.tmp-{}", ::getpid());
  fs::create_directory(blocker);
  CHECK_THROWS_WITH(write_report_files(report_of_suite("new"), out, parse_output_formats("json,csv,md")),
                    Catch::Contains("results.md: cannot write file"));
  fs::remove(blocker);
  CHECK(entries(dir.path) == std::vector<std::string>{"results.csv", "results.json"});
  CHECK(read_results_file((dir.path / "results.json").string()).environment.suite == "old");
}

TEST_CASE("result set: the output directory is checked and created before a run", "[report]") {
  const TempDir dir;
  SECTION("a missing directory is created") {
    const fs::path out = dir.path / "a" / "b";
    CHECK(prepare_output_directory(out.string()).empty());
    CHECK(fs::is_directory(out));
    CHECK(entries(out).empty());  // the probe file is gone
  }
  SECTION("a file in the way is bad input naming the directory") {
    std::ofstream(dir.path / "file") << "x";
    const std::string out = (dir.path / "file").string();
    CHECK_THROWS_AS(prepare_output_directory(out), InputError);
    CHECK_THROWS_WITH(prepare_output_directory(out), Catch::Contains("output directory " + out + ":"));
    CHECK_THROWS_WITH(prepare_output_directory((dir.path / "file" / "below").string()),
                      Catch::Contains("cannot create it"));
  }
  SECTION("a result name taken by a directory is refused before the run, not after") {
    fs::create_directories(dir.path / "results.csv");
    CHECK_THROWS_WITH(prepare_output_directory(dir.path.string()),
                      Catch::Contains("results.csv exists and is not a regular file"));
  }
  SECTION("a directory where nothing can be created is refused") {
    // /proc refuses new files even to root.
    CHECK_THROWS_WITH(prepare_output_directory("/proc"), Catch::Contains("output directory /proc: cannot create a file there"));
  }
  SECTION("an empty path is refused") { CHECK_THROWS_AS(prepare_output_directory(""), InputError); }
}

TEST_CASE("result set: temporaries of killed runs are removed, others kept", "[report]") {
  const TempDir dir;
  const std::vector<std::string> names = {
      fmt::format(".results.json.tmp-{}", kDeadPid),           // a killed run's: removed
      fmt::format(".results.gbench.json.tmp-{}", kDeadPid),    // removed
      fmt::format(".results.csv.tmp-{}", 1),                   // pid 1 runs: kept
      fmt::format(".notes.txt.tmp-{}", kDeadPid),              // not a result file: kept
      ".results.md.tmp-x",                                     // not a pid: kept
      "results.json"};                                         // kept
  for (const auto& name : names) std::ofstream(dir.path / name) << "x";
  const auto removed = prepare_output_directory(dir.path.string());
  CHECK(removed.size() == 2);
  CHECK(entries(dir.path) == std::vector<std::string>{".notes.txt.tmp-99999999", ".results.csv.tmp-1",
                                                     ".results.md.tmp-x", "results.json"});
}

TEST_CASE("result set: a pending file is removed unless committed", "[report]") {
  const TempDir dir;
  const fs::path target = dir.path / "results.json";
  {
    PendingFile pending(target, "{}\n");
    CHECK(fs::exists(temporary_path_for(target)));
    CHECK_FALSE(fs::exists(target));
  }
  CHECK(entries(dir.path).empty());
  {
    PendingFile pending(target, "{}\n");
    remove_pending_temporaries();  // what a second SIGINT does before the process ends
    CHECK_FALSE(fs::exists(temporary_path_for(target)));
  }
  PendingFile committed(target, "{\"a\": 1}\n");
  committed.commit();
  CHECK(read_file(target) == "{\"a\": 1}\n");
  CHECK(entries(dir.path) == std::vector<std::string>{"results.json"});
}

TEST_CASE("result set: text that is not UTF-8 cannot make results.json unwritable", "[report]") {
  const TempDir dir;
  RunReport report = report_of_suite("s");
  report.records[0].status = RecordStatus::kFailed;
  report.records[0].reason = "cannot open /data/\xff\xfe: No such file";  // a path from the command line
  write_report_files(report, dir.path.string(), parse_output_formats("json,gbench"));
  const RunReport back = read_results_file((dir.path / "results.json").string());
  CHECK(back.records[0].reason == "cannot open /data/\xef\xbf\xbd\xef\xbf\xbd: No such file");
}
