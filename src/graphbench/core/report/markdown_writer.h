// results.md: the tables a run prints, as GitHub-flavoured Markdown. A heading with the suite, the
// device, a table of benchmark records, a table of training records and the warnings.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <string>
#include <vector>

namespace graphbench {

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

}  // namespace graphbench
