// results.md (see markdown_writer.h). Numbers are rounded for people: times to about three
// significant digits, speedups to two decimals ("6.31x [6.10-6.52]").
#include "graphbench/report/markdown_writer.h"

#include "graphbench/report/markdown_text.h"
#include "graphbench/report/sweep_sections.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace graphbench {

namespace {

std::string human(double value) { return human_number(value); }

std::string speedup(double value) { return fmt::format("{:.2f}x", value); }


std::string status_text(const ResultRecord& r) {
  switch (r.status) {
    case RecordStatus::kOk: return r.reason.empty() ? "ok" : "ok: " + r.reason;
    case RecordStatus::kSkipped: return r.reason.empty() ? "skipped" : "skipped: " + r.reason;
    case RecordStatus::kFailed: return r.reason.empty() ? "FAILED" : "FAILED: " + r.reason;
  }
  return to_string(r.status);
}

bool is_training(const ResultRecord& r) { return r.kind == "training" || r.training.has_value(); }

void append_row(std::string& out, const std::vector<std::string>& cells) {
  out += '|';
  for (const auto& text : cells) out += ' ' + markdown_cell(text) + " |";
  out += '\n';
}

std::string device_line(const Environment& env) {
  std::vector<std::string> parts;
  if (env.device == "cuda" || !env.gpu_name.empty()) {
    parts.push_back(env.gpu_name.empty() ? "CUDA GPU" : env.gpu_name);
    if (!env.driver_version.empty()) parts.push_back("driver " + env.driver_version);
    if (!env.cuda_runtime_version.empty()) parts.push_back("CUDA " + env.cuda_runtime_version);
  } else {
    parts.push_back("CPU");
  }
  if (!env.libtorch_version.empty()) parts.push_back("LibTorch " + env.libtorch_version);
  std::string line = "Device: ";
  for (std::size_t i = 0; i < parts.size(); ++i) line += (i > 0 ? ", " : "") + parts[i];
  return line + "\n";
}

std::vector<std::string> benchmark_row(const ResultRecord& r) {
  std::string speedup_cell;
  if (r.speedup_vs_eager) {
    speedup_cell = speedup(*r.speedup_vs_eager);
    if (r.speedup_ci95) {
      speedup_cell += fmt::format(" [{:.2f}-{:.2f}]", r.speedup_ci95->low, r.speedup_ci95->high);
    } else if (has_too_few_samples(r)) {
      speedup_cell += fmt::format(" (no interval: {} of {} samples)", r.samples_us.size(), *r.min_samples);
    }
  }
  std::string bandwidth_cell;
  if (r.roofline) {
    bandwidth_cell = human(r.roofline->achieved_gbps);
    if (r.roofline->bandwidth_share) {
      bandwidth_cell += fmt::format(" ({:.1f}%)", 100.0 * *r.roofline->bandwidth_share);
    }
  }
  return {r.case_name,
          r.variant,
          r.method,
          status_text(r),
          r.stats ? human(r.stats->median) : "",
          r.issue_median_us ? human(*r.issue_median_us) : "",
          r.stats ? human(r.stats->iqr) : "",
          speedup_cell,
          r.published && r.published->speedup ? speedup(*r.published->speedup) : "",
          r.capture_ms ? human(*r.capture_ms) : "",
          bandwidth_cell};
}

std::vector<std::string> training_row(const ResultRecord& r) {
  const auto published =
      r.published && r.published->speedup ? speedup(*r.published->speedup) : std::string();
  if (r.status != RecordStatus::kOk || !r.training) {
    return {r.case_name, r.variant, status_text(r), "", "", "", "", published};
  }
  const TrainingSummary& t = *r.training;
  const bool has_breakdown = t.load_seconds > 0 || t.capture_seconds > 0 || t.train_seconds > 0 || t.test_seconds > 0;
  return {r.case_name,
          r.variant,
          std::to_string(t.epochs.size()),
          human(t.total_seconds),
          has_breakdown ? fmt::format("{:.2f} / {:.2f} / {:.2f} / {:.2f}", t.load_seconds, t.capture_seconds,
                                      t.train_seconds, t.test_seconds)
                        : "",
          t.epochs.empty() ? "" : fmt::format("{:.3f}", t.epochs.back().test_accuracy),
          t.median_step_us > 0.0 ? human(t.median_step_us) : "",
          published};
}

void append_benchmarks(std::string& out, const RunReport& report) {
  out += "\n## Benchmarks\n\n";
  out += "| case | variant | method | status | median (us) | host (us) | IQR (us) | speedup vs eager [95% CI] | "
         "published speedup | capture (ms) | GB/s (share of copy bandwidth) |\n";
  out += "|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const auto& r : report.records) {
    if (!is_training(r)) append_row(out, benchmark_row(r));
  }
}

std::string mib(std::int64_t bytes) { return human(static_cast<double>(bytes) / (1024.0 * 1024.0)); }

bool has_breakdown(const ResultRecord& r) {
  return !is_training(r) && (r.profile || r.memory || r.issue_median_us || r.back_to_back_us || !r.graphs.empty());
}

std::vector<std::string> breakdown_row(const ResultRecord& r) {
  std::string kernel_nodes;
  for (const GraphFacts& g : r.graphs) {
    if (g.kernel_nodes) kernel_nodes += (kernel_nodes.empty() ? "" : ", ") + std::to_string(*g.kernel_nodes);
  }
  const auto& p = r.profile;
  return {r.case_name,
          r.variant,
          r.method,
          p ? human(p->kernels_per_step) : "",
          kernel_nodes,
          p ? human(p->busy_us_per_step) : "",
          p && p->busy_share ? fmt::format("{:.0f}%", 100.0 * *p->busy_share) : "",
          r.issue_median_us ? human(*r.issue_median_us) : "",
          r.host_bound ? (*r.host_bound ? "yes" : "no") : "",
          r.back_to_back_us ? human(*r.back_to_back_us) : "",
          r.memory ? mib(r.memory->peak_allocated_bytes) : "",
          r.memory ? mib(r.memory->peak_reserved_bytes) : "",
          r.memory && r.memory->graph_pool_bytes ? mib(*r.memory->graph_pool_bytes) : ""};
}

// Why each figure is what it is: the kernels a step runs and how long the device is busy with
// them, the host's share, and the memory (see docs/results.md).
void append_breakdown(std::string& out, const RunReport& report) {
  out += "\n## Where the time goes\n\n";
  out += "| case | variant | method | kernels / step | graph kernel nodes | GPU busy (us / step) | busy share | "
         "host (us / step) | host-bound | back to back (us / step) | peak allocated (MiB) | peak reserved (MiB) | graph pool (MiB) |\n";
  out += "|---|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|\n";
  for (const auto& r : report.records) {
    if (has_breakdown(r)) append_row(out, breakdown_row(r));
  }
}

void append_training(std::string& out, const RunReport& report) {
  out += "\n## Training\n\n";
  out += "| case | variant | epochs | total (s) | load / capture / training / testing (s) | final test accuracy | "
         "median step (us) | published |\n";
  out += "|---|---|--:|--:|--:|--:|--:|--:|\n";
  for (const auto& r : report.records) {
    if (is_training(r)) append_row(out, training_row(r));
  }
}

// "overlapped, 2 buckets of <= 25 MiB, fc1.weight in 4 chunks, bfloat16, 16 SMs left to the all-reduce,
// copy-engine all-reduce"
std::string gradient_sync_text(const DataParallelFigures& d) {
  std::string text = d.overlapped ? "overlapped" : "after backward";
  if (d.buckets > 0) {
    text += fmt::format(", {} bucket{}", d.buckets, d.buckets == 1 ? "" : "s");
    if (d.bucket_cap_bytes > 0) text += " of <= " + mib(d.bucket_cap_bytes) + " MiB";
  }
  for (const GradientChunks& c : d.chunked_gradients) text += fmt::format(", {} in {} chunks", c.param, c.rows.size());
  if (d.grad_dtype != "float32") text += ", " + d.grad_dtype;
  if (d.sm_carveout > 0) text += fmt::format(", {} SMs left to the all-reduce", d.sm_carveout);
  if (d.grad_transport != "collective") text += ", " + d.grad_transport + " all-reduce";
  return text;
}

std::vector<std::string> data_parallel_row(const ResultRecord& r) {
  const DataParallelFigures& d = *r.data_parallel;
  if (r.status != RecordStatus::kOk) {
    return {r.case_name, r.variant, std::to_string(d.world_size), status_text(r), "", "", "", "", "", "", "", "", "", ""};
  }
  const auto optional = [](const std::optional<double>& v) { return v ? human(*v) : std::string(); };
  std::string identical = d.params_identical ? "yes" : "NO";
  if (d.max_error_vs_one_process) identical += fmt::format(" ({:.2g})", *d.max_error_vs_one_process);
  return {r.case_name,
          r.variant,
          fmt::format("{} ({})", d.world_size, d.backend),
          fmt::format("{} / {} (rank {})", human(d.median_us), human(d.slowest_median_us), d.slowest_rank),
          optional(d.no_all_reduce_us),
          optional(d.exposed_all_reduce_us),
          optional(d.all_reduce_us),
          gradient_sync_text(d),
          human(d.samples_per_second),
          optional(d.one_rank_us),
          d.scaling_efficiency ? fmt::format("{:.0f}%", 100.0 * *d.scaling_efficiency) : "",
          r.speedup_vs_eager ? speedup(*r.speedup_vs_eager) : "",
          identical,
          fmt::format("{} x {}", d.world_size, d.samples_per_rank)};
}

// "nccl 2.27.5, under NCCL_MIN_NCHANNELS=32, NCCL_NVLS_ENABLE=0": what the records' all-reduces ran on.
std::string communication_text(const DataParallelFigures& d) {
  std::string text = d.backend;
  if (!d.backend_version.empty()) text += " " + d.backend_version;
  if (!d.backend_settings) return text + " (its tuning variables were not recorded)";
  if (d.backend_settings->empty()) return text + ", no tuning variables set";
  std::vector<std::string> settings;
  for (const auto& [name, value] : *d.backend_settings) settings.push_back(name + "=" + value);
  return text + ", under " + fmt::format("{}", fmt::join(settings, ", "));
}

void append_data_parallel(std::string& out, const RunReport& report) {
  out += "\n## Data-parallel\n\n";
  out += "Step times are device time per step on each rank; the world's step is the slowest rank's. "
         "Without all-reduce: the same step on each rank's shard alone, timed in the same run; exposed "
         "all-reduce: the world's step minus that, the communication the backward pass did not hide. "
         "Scaling efficiency: samples/s with N ranks over N times those of one rank alone.\n\n";
  out += "| case | variant | ranks | step median / slowest rank (us) | without all-reduce (us) | exposed all-reduce (us) | "
         "all-reduce alone (us) | gradients | samples/s | one rank (us) | scaling efficiency | speedup vs eager | "
         "params identical (max error vs one process) | global batch |\n";
  out += "|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|\n";
  std::vector<std::string> communication;  // distinct, in order of first use
  for (const auto& r : report.records) {
    if (!r.data_parallel) continue;
    append_row(out, data_parallel_row(r));
    std::string text = communication_text(*r.data_parallel);
    if (std::find(communication.begin(), communication.end(), text) == communication.end()) {
      communication.push_back(std::move(text));
    }
  }
  for (const std::string& text : communication) out += "\nCommunication: " + markdown_cell(text) + "\n";
}

void append_warnings(std::string& out, const RunReport& report) {
  std::string lines;
  for (const auto& r : report.records) {
    for (const auto& warning : r.warnings) {
      lines += fmt::format("- {} / {}: {}\n", markdown_cell(r.case_name), markdown_cell(r.variant), markdown_cell(warning));
    }
  }
  if (!lines.empty()) out += "\n## Warnings\n\n" + lines;
}

// Variants that passed validation other than strictly within the tolerances, and how.
void append_validation_notes(std::string& out, const RunReport& report) {
  std::string lines;
  for (const auto& r : report.records) {
    if (r.validation_note.empty()) continue;
    lines += fmt::format("- {} / {}: {}\n", markdown_cell(r.case_name), markdown_cell(r.variant),
                         markdown_cell(r.validation_note));
  }
  if (!lines.empty()) out += "\n## Validation notes\n\n" + lines;
}

}  // namespace

std::string render_markdown(const RunReport& report) {
  const Environment& env = report.environment;
  std::string out = fmt::format("# graphbench: {}\n\n", env.suite.empty() ? "run" : markdown_cell(env.suite));
  out += device_line(env);
  if (!env.date_utc.empty()) out += "Date: " + markdown_cell(env.date_utc) + "\n";
  if (report.interrupted) {
    out += fmt::format("\n**Interrupted by {}:** only the cases below finished; the others did not run.\n",
                       report.interrupted_by.empty() ? "a signal" : markdown_cell(report.interrupted_by));
  }

  bool any_benchmark = false;
  bool any_training = false;
  bool any_data_parallel = false;
  for (const auto& r : report.records) {
    (is_training(r) ? any_training : any_benchmark) = true;
    any_data_parallel = any_data_parallel || r.data_parallel.has_value();
  }
  if (!any_benchmark && !any_training) out += "\nNo results.\n";
  if (any_data_parallel) append_data_parallel(out, report);
  if (any_benchmark) append_benchmarks(out, report);
  out += sweeps_markdown(report);
  if (std::any_of(report.records.begin(), report.records.end(), has_breakdown)) append_breakdown(out, report);
  if (any_training) append_training(out, report);
  append_validation_notes(out, report);
  append_warnings(out, report);
  return out;
}

}  // namespace graphbench
