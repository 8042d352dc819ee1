#include "graphbench/core/suite/gradient_sync_fields.h"

#include <algorithm>
#include <cmath>

namespace graphbench {

namespace {
// A bucket (or a gradient chunk) holds at most this much (a larger cap is surely a typo: 1 TiB).
constexpr double kMaxBucketMb = 1024.0 * 1024.0;

std::size_t mib_to_bytes(double mb) { return static_cast<std::size_t>(std::max(1.0, std::round(mb * 1024.0 * 1024.0))); }
}  // namespace

const char* const kChunkMbExpected = "a gradient chunk cap in MiB, 0 (no chunks) or above 0 and at most 1048576 (e.g. 8)";

bool valid_chunk_mb(double mb) { return mb >= 0.0 && mb <= kMaxBucketMb; }

const std::vector<std::string>& gradient_dtypes() {
  static const std::vector<std::string> dtypes = {"float32", "bfloat16"};
  return dtypes;
}

const std::vector<std::string>& gradient_transports() {
  static const std::vector<std::string> transports = {"collective", "copy-engine", "symmetric-memory", "auto"};
  return transports;
}

const std::vector<std::string>& gradient_sync_keys() {
  static const std::vector<std::string> keys = {"grad_dtype", "grad_bucket_mb", "grad_overlap", "grad_chunk_mb",
                                                   "grad_transport"};
  return keys;
}

void reject_removed_gradient_sync_keys(const JsonChecker& checker, const nlohmann::json& object,
                                       const std::string& pointer) {
  if (object.contains("grad_sm_carveout")) {
    checker.fail(json_pointer_append(pointer, "grad_sm_carveout"),
                 "removed: leaving multiprocessors to the all-reduce (the SM carveout of the backward pass's "
                 "products) measured no gain on two H200s (docs/distributed.md, \"The levers, measured on two "
                 "H200s\"); delete this key");
  }
}

void read_gradient_sync(const JsonChecker& checker, const nlohmann::json& object, const std::string& pointer,
                        GradientSyncSpec& into) {
  if (const auto found = object.find("grad_dtype"); found != object.end()) {
    into.dtype = checker.read_choice(*found, json_pointer_append(pointer, "grad_dtype"), gradient_dtypes());
  }
  if (const auto found = object.find("grad_bucket_mb"); found != object.end()) {
    const double mb = found->is_number() ? found->get<double>() : 0.0;
    if (!(mb > 0.0 && mb <= kMaxBucketMb)) {
      checker.fail_expected(json_pointer_append(pointer, "grad_bucket_mb"),
                            "a bucket cap in MiB, above 0 and at most 1048576 (e.g. 25)", *found);
    }
    into.bucket_mb = mb;
  }
  if (const auto found = object.find("grad_overlap"); found != object.end()) {
    into.overlap = checker.read_bool(*found, json_pointer_append(pointer, "grad_overlap"));
  }
  if (const auto found = object.find("grad_chunk_mb"); found != object.end()) {
    if (!found->is_number() || !valid_chunk_mb(found->get<double>())) {
      checker.fail_expected(json_pointer_append(pointer, "grad_chunk_mb"), kChunkMbExpected, *found);
    }
    into.chunk_mb = found->get<double>();
  }
  if (const auto found = object.find("grad_transport"); found != object.end()) {
    into.transport = checker.read_choice(*found, json_pointer_append(pointer, "grad_transport"), gradient_transports());
  }
}

std::size_t bucket_cap_bytes(const GradientSyncSpec& spec) { return mib_to_bytes(spec.bucket_mb); }

std::size_t chunk_cap_bytes(const GradientSyncSpec& spec) {
  return spec.chunk_mb > 0.0 && spec.overlap ? mib_to_bytes(spec.chunk_mb) : 0;
}

}  // namespace graphbench
