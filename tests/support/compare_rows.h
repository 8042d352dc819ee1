// Helpers for tests of compare's results and of the texts that explain them.
#pragma once

#include "graphbench/core/compare/compare.h"

#include <stdexcept>
#include <string>

namespace graphbench::testing {

// The row of `result` for `case_name` and `variant`; a missing row throws, failing the test.
inline const Comparison& row_of(const CompareResult& result, const std::string& case_name,
                                const std::string& variant) {
  for (const Comparison& row : result.rows) {
    if (row.case_name == case_name && row.variant == variant) return row;
  }
  throw std::logic_error("no row for " + case_name + "/" + variant);
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace graphbench::testing
