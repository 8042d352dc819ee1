// What a run prints (render_console, core/report/writers.h) and its aligned tables
// (TextTable, core/report/writers.h), on given records: columns padded and the empty ones left out, skipped
// variants folded per case, the same warning once with a count, a summary line per case.
#include "support/catch.h"
#include "support/records.h"

#include "graphbench/core/report/writers.h"
#include "graphbench/core/workload/variant.h"

#include <sstream>

namespace {

using namespace graphbench;

ResultRecord record(const std::string& case_name, const std::string& variant, RecordStatus status,
                    const std::string& reason = "") {
  ResultRecord r = testing::benchmark_record(case_name, variant);
  if (const Variant* v = Variant::find(variant)) r.method = v->method();
  r.status = status;
  r.reason = reason;
  return r;
}

ResultRecord timed(const std::string& case_name, const std::string& variant, double median_us, double speedup,
                   stats::Interval ci) {
  ResultRecord r = record(case_name, variant, RecordStatus::kOk);
  stats::Summary s;
  s.count = 10;
  s.median = median_us;
  s.iqr = median_us / 100;
  r.stats = s;
  r.speedup_vs_eager = speedup;
  r.speedup_ci95 = ci;
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of `text` from the one that starts with `first` to the next empty one.
std::vector<std::string> block(const std::string& text, const std::string& first) {
  std::vector<std::string> out;
  bool in = false;
  for (const auto& line : lines_of(text)) {
    if (!in && line.rfind(first, 0) == 0) in = true;
    if (in && line.empty()) break;
    if (in) out.push_back(line);
  }
  return out;
}

RunReport cpu_report() {
  RunReport report;
  report.environment.suite = "gelu";
  report.environment.device = "cpu";
  report.environment.libtorch_version = "1.13.1";
  const std::string no_cuda = "CUDA graphs need a CUDA device";
  for (const char* name : {"gelu-small", "gelu-large"}) {
    const double scale = std::string(name) == "gelu-small" ? 1.0 : 100.0;
    report.records.push_back(timed(name, "eager", 70.9 * scale, 1.0, {0.98, 1.02}));
    report.records.push_back(timed(name, "static", 60.0 * scale, 1.18, {1.15, 1.21}));
    report.records.push_back(record(name, "graph", RecordStatus::kSkipped, no_cuda));
    report.records.push_back(record(name, "jit+graph", RecordStatus::kSkipped, no_cuda));
    report.records.push_back(record(name, "reference+graph", RecordStatus::kSkipped, "no reference form"));
  }
  for (auto& r : report.records) {
    if (r.status == RecordStatus::kOk) r.warnings.push_back("CPU frequency scaling is on: times may drift");
  }
  report.records[0].warnings.push_back("only 10 samples");
  return report;
}

}  // namespace

TEST_CASE("console: the aligned table pads every column and leaves out those empty on every row", "[console]") {
  TextTable table({{"case", TextTable::Align::kLeft}, {"host (us)", TextTable::Align::kRight},
                   {"median (us)", TextTable::Align::kRight}});
  table.add_row({"gelu-small", "", "70.9"});
  table.add_row({"gelu-large", "", "7090"});
  table.add_row({"a|b", "", "1.5"});
  CHECK(table.aligned() ==
        "| case       | median (us) |\n"
        "|------------|------------:|\n"
        "| gelu-small |        70.9 |\n"
        "| gelu-large |        7090 |\n"
        "| a\\|b       |         1.5 |\n");
  // results.md's form keeps every column, unpadded.
  CHECK(table.markdown() == "| case | host (us) | median (us) |\n|---|--:|--:|\n| gelu-small |  | 70.9 |\n"
                            "| gelu-large |  | 7090 |\n| a\\|b |  | 1.5 |\n");
  CHECK(display_width("± 0.05") == 6);
}

TEST_CASE("console: the benchmark table of a CPU run, skipped variants folded per case and reason", "[console]") {
  const std::string text = render_console(cpu_report());
  const auto table = block(text, "| case");
  REQUIRE(table.size() == 6);
  CHECK(table[0] == "| case       | variant | method   | status | median (us) | IQR (us) | speedup vs eager [95% CI] |");
  CHECK(table[1] == "|------------|---------|----------|--------|------------:|---------:|--------------------------:|");
  CHECK(table[2] == "| gelu-small | eager   | run      | ok     |        70.9 |    0.709 |         1.00x [0.98-1.02] |");
  CHECK(table[5] == "| gelu-large | static  | feed+run | ok     |        6000 |       60 |         1.18x [1.15-1.21] |");
  // Every line of the table is as wide as the header.
  for (const auto& line : table) CHECK(display_width(line) == display_width(table[0]));
  const auto skipped = block(text, "- gelu-small: skipped");
  CHECK(skipped == std::vector<std::string>{
                       "- gelu-small: skipped (CUDA graphs need a CUDA device): graph, jit+graph",
                       "- gelu-small: skipped (no reference form): reference+graph",
                       "- gelu-large: skipped (CUDA graphs need a CUDA device): graph, jit+graph",
                       "- gelu-large: skipped (no reference form): reference+graph"});
  CHECK(text.find("skipped: CUDA graphs") == std::string::npos);  // no row of its own
}

TEST_CASE("console: one summary line per case, in hyperfine's words", "[console]") {
  RunReport report = cpu_report();
  // gelu-large: eager is the fastest; the ratio and its interval turn over.
  report.records[6].speedup_vs_eager = 0.5;
  report.records[6].speedup_ci95 = stats::Interval{0.4, 0.625};
  CHECK(case_summaries(report) == std::vector<std::string>{"gelu-small: static ran 1.18 ± 0.03 times faster than eager",
                                                           "gelu-large: eager ran 2.00 ± 0.45 times faster than static"});
  const std::string text = render_console(report);
  CHECK(text.find("\nSummary (the fastest variant of each case against eager; ± half the 95% interval):\n"
                  "  gelu-small: static ran 1.18 ± 0.03 times faster than eager\n") != std::string::npos);
  // A case without an ok eager record has no summary.
  report.records[0].status = RecordStatus::kFailed;
  CHECK(case_summaries(report).size() == 1);
}

TEST_CASE("console: a warning shared by several records is printed once, with the count", "[console]") {
  const std::string text = render_console(cpu_report());
  CHECK(block(text, "## Warnings") ==
        std::vector<std::string>{"## Warnings"});
  const auto warnings = block(text.substr(text.find("## Warnings") + 13), "- ");
  CHECK(warnings == std::vector<std::string>{
                        "- 4 records: CPU frequency scaling is on: times may drift (gelu-small / eager, gelu-small / "
                        "static, gelu-large / eager and 1 more)",
                        "- gelu-small / eager: only 10 samples"});
  // results.md keeps one line per record and warning.
  const std::string md = render_markdown(cpu_report());
  CHECK(md.find("- gelu-large / static: CPU frequency scaling is on: times may drift\n") != std::string::npos);
  CHECK(md.find("| gelu-small | graph | feed+replay | skipped: CUDA graphs need a CUDA device |") != std::string::npos);
}
