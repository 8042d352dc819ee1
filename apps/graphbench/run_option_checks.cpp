#include "run_option_checks.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/report_files.h"
#include "graphbench/core/suite/gradient_sync_fields.h"
#include "graphbench/core/suite/safe_name.h"
#include "graphbench/core/suite/suite_parser.h"
#include "graphbench/core/workload/variant.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <sstream>

namespace graphbench::cli {

namespace {

void check_sampling(const RunOptions& o) {
  auto positive = [](const char* flag, double value) {
    if (!(value > 0) || !std::isfinite(value)) throw InputError(fmt::format("{}: expected a positive number, got {}", flag, value));
  };
  if (o.min_samples && *o.min_samples < 1) throw InputError("--min-samples: expected a positive integer");
  if (o.max_samples && *o.max_samples < 1) throw InputError("--max-samples: expected a positive integer");
  if (o.warmup && *o.warmup < 0) throw InputError("--warmup: expected a non-negative integer");
  if (o.min_time_s) positive("--min-time", *o.min_time_s);
  if (o.max_time_s) positive("--max-time", *o.max_time_s);
  if (o.noise && !(*o.noise > 0 && *o.noise < 1)) throw InputError("--noise: expected a number in (0, 1)");
  if (o.min_samples && o.max_samples && *o.min_samples > *o.max_samples) {
    throw InputError(fmt::format("--min-samples {} is above --max-samples {}", *o.min_samples, *o.max_samples));
  }
  if (o.min_time_s && o.max_time_s && *o.min_time_s > *o.max_time_s) {
    throw InputError(fmt::format("--min-time {} is above --max-time {}", *o.min_time_s, *o.max_time_s));
  }
}

// What starts several processes: ranks (--nproc) or repetitions.
void check_processes(const RunOptions& o) {
  if (!(o.dist_timeout_s > 0)) {
    throw InputError(fmt::format("--dist-timeout: expected a positive number of seconds, got {}", o.dist_timeout_s));
  }
  if (o.nproc && *o.nproc < 1) throw InputError(fmt::format("--nproc: expected a positive number of ranks, got {}", *o.nproc));
  if (o.nproc && o.repetitions > 1) {
    throw InputError("--repetitions with --nproc: repeating a data-parallel run is not supported; run it several "
                     "times (each with its own -o) and compare the results");
  }
  if (o.nproc) refuse_suite_from_stdin(o, "a data-parallel run", "rank");
  if (o.repetitions > 1) refuse_suite_from_stdin(o, "--repetitions", "repetition");
}

}  // namespace

void refuse_suite_from_stdin(const RunOptions& o, const std::string& starter, const std::string& process) {
  if (o.config != kSuiteFromStdin) return;
  throw InputError(fmt::format("--config -: {} starts one process per {}, and each reads the suite; standard input "
                               "reaches only one of them: write the suite to a file and give its name",
                               starter, process));
}

std::vector<std::string> case_names_of(const std::vector<std::string>& values) {
  std::vector<std::string> names;
  for (const auto& value : values) {
    std::vector<std::string> tokens(1);
    for (std::size_t i = 0; i < value.size(); ++i) {
      const bool escaped = value[i] == '\\' && i + 1 < value.size() && (value[i + 1] == ',' || value[i + 1] == '\\');
      if (escaped) {
        tokens.back() += value[++i];
      } else if (value[i] == ',') {
        tokens.emplace_back();
      } else {
        tokens.back() += value[i];
      }
    }
    for (const auto& token : tokens) {
      if (token.empty()) {
        throw InputError(fmt::format("--cases: empty case name in \"{}\" (expected names separated by commas; write "
                                     "\\, for a comma inside a name)",
                                     value));
      }
      names.push_back(token);
    }
  }
  return names;
}

std::vector<std::string> variant_names_of(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty()) names.push_back(item);
  }
  if (names.empty()) {
    throw InputError(fmt::format("--variants: no variant given in \"{}\" (known: {})", list, fmt::join(Variant::names(), ", ")));
  }
  for (const auto& v : names) {
    if (Variant::find(v) == nullptr) {
      throw InputError(fmt::format("--variants: unknown variant \"{}\" (known: {})", v, fmt::join(Variant::names(), ", ")));
    }
  }
  return names;
}

std::pair<std::string, int> slowdown_of(const std::string& text) {
  const auto eq = text.find('=');
  int factor = 0;
  if (eq != std::string::npos) {
    try {
      factor = std::stoi(text.substr(eq + 1));
    } catch (const std::exception&) {
      factor = 0;
    }
  }
  if (eq == std::string::npos || factor < 2 || Variant::find(text.substr(0, eq)) == nullptr) {
    throw InputError("--inject-slowdown: expected VARIANT=K with a known variant and an integer K >= 2, got \"" + text +
                     "\"");
  }
  return {text.substr(0, eq), factor};
}

void check_run_options(const RunOptions& o) {
  if (!o.workload.empty() && !is_safe_name(o.workload)) {
    throw InputError(fmt::format("--suite \"{}\": expected the name of a suite ({}), not a path: use run --config FILE "
                                 "for a file",
                                 o.workload, kSafeNameRule));
  }
  parse_output_formats(o.formats);
  case_names_of(o.cases);
  if (o.variants) variant_names_of(*o.variants);
  check_sampling(o);
  if (o.grad_bucket_mb && !(*o.grad_bucket_mb > 0 && *o.grad_bucket_mb <= 1048576)) {
    throw InputError(fmt::format("--grad-bucket-mb: expected a bucket cap in MiB, above 0 and at most 1048576 (e.g. 25), got {}",
                                 *o.grad_bucket_mb));
  }
  if (o.grad_chunk_mb && !valid_chunk_mb(*o.grad_chunk_mb)) {
    throw InputError(fmt::format("--grad-chunk-mb: expected {}, got {}", kChunkMbExpected, *o.grad_chunk_mb));
  }
  if (!o.last_batch.empty() && o.last_batch != "skip" && o.last_batch != "capture") {
    throw InputError("--last-batch: expected skip or capture, got \"" + o.last_batch + "\"");
  }
  if (o.epochs && *o.epochs < 1) throw InputError(fmt::format("--epochs: expected a positive integer, got {}", *o.epochs));
  if (o.data_dir && o.data_dir->empty()) throw InputError("--data-dir is empty: give the directory holding the MNIST files");
  if (!o.inject_slowdown.empty()) slowdown_of(o.inject_slowdown);
  check_processes(o);
}

}  // namespace graphbench::cli
