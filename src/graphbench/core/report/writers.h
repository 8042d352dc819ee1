// The result files' formats as text (docs/results.md), each from a RunReport.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace graphbench {

// results.csv: one row per (case, variant) with the summary columns of docs/results.md.
// The header row of results.csv, without the line end.
const char* csv_header();

// The whole file: the header, then one row per record in report order. Fields that do not apply
// are empty, text is quoted as RFC 4180 asks, numbers use the shortest form that round-trips;
// lines end with "\n".
std::string render_csv(const RunReport& report);

// results.md: the tables a run prints, as GitHub-flavoured Markdown. A heading with the suite, the
// device, a table of benchmark records, a table of training records and the warnings.
std::string render_markdown(const RunReport& report);

// What a run prints (unless -q): the same report for a terminal. Tables aligned, without the
// columns empty on every row; skipped variants folded into one line per case and reason; a
// one-line summary per case ("gelu-small: static ran 1.25 ± 0.03 times faster than eager"); a
// warning that several records share printed once with their count. Still valid Markdown.
std::string render_console(const RunReport& report);

// Each benchmark case's fastest variant against eager, in hyperfine's words: "CASE: VARIANT ran
// 3.10 ± 0.05 times faster than eager" (± half the speedup's 95% interval), or, where eager is the
// fastest, "CASE: eager ran 1.20 ± 0.02 times faster than VARIANT" (the next fastest). Cases
// without an ok eager record and another ok variant have none.
std::vector<std::string> case_summaries(const RunReport& report);

// results.gbench.json: the run in Google Benchmark's JSON format, for dashboards that read it
// (github-action-benchmark, Bencher) and google/benchmark's tools/compare.py. Each (case, variant)
// is written as a run with --benchmark_repetitions, its samples the repetitions: one "iteration"
// entry per sample (real_time its per-step device time, cpu_time its host time), then the "_mean",
// "_median", "_stddev" and "_cv" aggregates, the first two with the record's counters. A record
// without samples is one entry of its summaries; a training record adds "case/variant/total_time";
// a failed or skipped one is an errored entry. The mapping in full: docs/results.md.
nlohmann::json to_gbench_json(const RunReport& report);

// A Markdown table built row by row, written as results.md has it ("| a | b |") or for a terminal:
// padded columns (numbers to the right), those empty on every row left out. Cells are escaped.
class TextTable {
 public:
  enum class Align { kLeft, kRight };
  struct Column {
    std::string header;
    Align align = Align::kLeft;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

  // A row of as many cells as there are columns (escaped when written).
  void add_row(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }

  // results.md's form: "| a | b |", then "|---|--:|", then one line per row.
  std::string markdown() const;
  // The terminal's form: aligned, and without the columns empty on every row.
  std::string aligned() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Characters on a terminal: UTF-8 code points, not bytes ("±" is one).
std::size_t display_width(const std::string& text);

}  // namespace graphbench
