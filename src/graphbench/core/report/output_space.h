// Room for the results, checked before a run measures anything: a run whose output file system is
// below a lower bound of what the result files need (every record with min_samples samples, in every
// selected format) is refused (exit 2). Passing promises nothing: a failed write is rescued
// (rescue_file.h).
#pragma once

#include "graphbench/core/report/report_files.h"

#include <cstdint>
#include <optional>
#include <string>

namespace graphbench {

// Bytes the result files need at least: `records` records of `min_samples` samples each, in
// every selected format.
std::uint64_t minimum_result_bytes(std::size_t records, int min_samples, const OutputFormats& formats);

// Bytes an unprivileged process may still write on the file system that holds `directory`, or
// nullopt where the system cannot tell.
std::optional<std::uint64_t> available_bytes(const std::string& directory);

// InputError "output directory DIR: only X free on its file system, and the results of N
// records need at least Y ..." when `available` is below `needed`.
void check_output_space(const std::string& directory, std::optional<std::uint64_t> available, std::uint64_t needed,
                        std::size_t records);

}  // namespace graphbench
