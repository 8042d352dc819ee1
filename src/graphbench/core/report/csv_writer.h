// results.csv: one row per (case, variant) with the summary columns of docs/results.md.
#pragma once

#include "graphbench/core/record/result_record.h"

#include <string>

namespace graphbench {

// The header row of results.csv, without the line end.
const char* csv_header();

// The whole file: the header, then one row per record in report order. Fields that do not apply
// are empty, text is quoted as RFC 4180 asks, numbers use the shortest form that round-trips;
// lines end with "\n".
std::string render_csv(const RunReport& report);

}  // namespace graphbench
