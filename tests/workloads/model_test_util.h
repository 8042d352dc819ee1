// Shared by the model-workload tests: a temporary directory with the test models, suite files
// written next to them (so that `path` is relative to the suite file, as users write it), and
// running one case of such a suite.
#pragma once

#include "support/catch.h"
#include "support/scratch_dir.h"
#include "support/test_models.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/record/result_record.h"
#include "graphbench/engine/runner/benchmark_case.h"
#include "graphbench/engine/runner/suite_runner.h"
#include "graphbench/engine/runner/workload_registry.h"
#include "graphbench/core/suite/suite_parser.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace graphbench::testing {

// A counter of a record or runner; counters at zero are left out of the map.
inline std::int64_t counter(const std::map<std::string, std::int64_t>& counters, const std::string& name) {
  const auto it = counters.find(name);
  return it == counters.end() ? 0 : it->second;
}

// Quick sampling for CPU runs.
inline const char* const kQuickDefaults =
    R"("defaults": {"warmup": 1, "sampling": {"min_samples": 3, "max_samples": 4, "min_time_s": 0.001,
       "max_time_s": 60, "min_sample_time_ms": 0.1}})";

class ModelDir {
 public:
  ModelDir() : scratch_("graphbench-models"), path_(scratch_.path()) { models_ = write_test_models(path_); }

  const std::filesystem::path& path() const { return path_; }
  const TestModels& models() const { return models_; }

  // Writes a suite whose cases are `cases` (a JSON array's text) and returns its file name.
  std::string write_suite(const std::string& cases, const std::string& name = "suite.json") const {
    const auto file = path_ / name;
    std::ofstream(file) << R"({"suite": "models", )" << kQuickDefaults << R"(, "cases": )" << cases << "}";
    return file.string();
  }

  SuiteSpec load(const std::string& cases) const {
    return load_suite_spec(write_suite(cases), WorkloadRegistry::global().descriptors());
  }

 private:
  ScratchDir scratch_;
  std::filesystem::path path_;
  TestModels models_;
};

// A case of a suite instantiated as the case runner does it: the inputs are drawn from `seed`.
inline std::unique_ptr<CaseInstance> instantiate(const CaseSpec& spec, std::uint64_t seed) {
  CaseContext context;
  context.seed = seed;
  at::manual_seed(seed);
  return WorkloadRegistry::global().find(spec.workload)->instantiate(spec, context);
}

// The message of the InputError that loading `cases` throws ("(no error)" if none).
inline std::string load_error(const ModelDir& dir, const std::string& cases) {
  try {
    dir.load(cases);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// The message of the InputError that the preflight of the suite's cases throws ("(no error)" if none).
inline std::string preflight_error(const ModelDir& dir, const std::string& cases) {
  const SuiteSpec suite = dir.load(cases);
  try {
    preflight_suite(suite, WorkloadRegistry::global());
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

inline std::vector<ResultRecord> run_case(const CaseSpec& spec, at::Device device = at::kCPU) {
  CaseContext context;
  context.device = device;
  return run_benchmark_case(*WorkloadRegistry::global().find(spec.workload), spec, context, Environment{}, nullptr);
}

// By value: a reference returned for a string argument made on the spot reads as dangling to GCC 13.
inline ResultRecord record_of(const std::vector<ResultRecord>& records, const std::string& variant) {
  for (const auto& r : records) {
    if (r.variant == variant) return r;
  }
  FAIL("no record for variant " << variant);
  return records.front();
}

}  // namespace graphbench::testing
