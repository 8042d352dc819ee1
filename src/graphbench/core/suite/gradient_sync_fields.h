// The data-parallel keys of a suite file ("grad_dtype", "grad_bucket_mb", "grad_overlap",
// "grad_chunk_mb", "grad_transport") in "defaults" or a case (the case wins).
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/suite_spec.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace graphbench {

// The values "grad_dtype" may take.
const std::vector<std::string>& gradient_dtypes();

// The values "grad_transport" may take.
const std::vector<std::string>& gradient_transports();

const std::vector<std::string>& gradient_sync_keys();

// Throws, saying why, for a removed key ("grad_sm_carveout"); before the unknown-key check.
void reject_removed_gradient_sync_keys(const JsonChecker& checker, const nlohmann::json& object,
                                       const std::string& pointer);

// Reads the keys of gradient_sync_keys() present in `object` (at `pointer`) over `into`.
void read_gradient_sync(const JsonChecker& checker, const nlohmann::json& object, const std::string& pointer,
                        GradientSyncSpec& into);

// The bucket cap in bytes: bucket_mb MiB, at least one byte.
std::size_t bucket_cap_bytes(const GradientSyncSpec& spec);

// What "grad_chunk_mb" and --grad-chunk-mb expect, for their messages; and whether `mb` is one.
extern const char* const kChunkMbExpected;
bool valid_chunk_mb(double mb);

// The cap of a gradient chunk in bytes (at least one), or 0: no chunking (chunk_mb 0, or no overlap).
std::size_t chunk_cap_bytes(const GradientSyncSpec& spec);

}  // namespace graphbench
