#include "graphbench/suite/gradient_sync_fields.h"

#include <algorithm>
#include <cmath>

namespace graphbench {

namespace {
// A bucket holds at most this much (a larger cap is surely a typo: 1 TiB).
constexpr double kMaxBucketMb = 1024.0 * 1024.0;
}  // namespace

const std::vector<std::string>& gradient_dtypes() {
  static const std::vector<std::string> dtypes = {"float32", "bfloat16"};
  return dtypes;
}

const std::vector<std::string>& gradient_sync_keys() {
  static const std::vector<std::string> keys = {"grad_dtype", "grad_bucket_mb", "grad_overlap"};
  return keys;
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
}

std::size_t bucket_cap_bytes(const GradientSyncSpec& spec) {
  return static_cast<std::size_t>(std::max(1.0, std::round(spec.bucket_mb * 1024.0 * 1024.0)));
}

}  // namespace graphbench
