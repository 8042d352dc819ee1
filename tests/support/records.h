// A result record of a benchmark case, its identity filled in, for tests of writers and readers.
#pragma once

#include "graphbench/record/result_record.h"

#include <string>

namespace graphbench::testing {

inline ResultRecord benchmark_record(const std::string& case_name, const std::string& variant,
                                     const std::string& device = "cpu") {
  ResultRecord r;
  r.case_name = case_name;
  r.workload = "gelu";
  r.variant = variant;
  r.kind = "benchmark";
  r.mode = "inference";
  r.dtype = "float32";
  r.device = device;
  return r;
}

}  // namespace graphbench::testing
