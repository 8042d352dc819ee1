// results.md: the tables a run prints, as GitHub-flavoured Markdown. A heading with the suite, the
// device, a table of benchmark records, a table of training records and the warnings.
#pragma once

#include "graphbench/record/result_record.h"

#include <string>

namespace graphbench {

std::string render_markdown(const RunReport& report);

}  // namespace graphbench
