// results.md (see writers.h). Numbers are rounded for people: times to about three
// significant digits, speedups to two decimals ("6.31x [6.10-6.52]").
#include "graphbench/core/report/writers.h"

#include "graphbench/core/report/markdown_text.h"
#include "graphbench/core/report/sweep_sections.h"
#include "graphbench/core/base/errors.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

namespace graphbench {

namespace {

// results.md, or the terminal's view of the same report (render_console).
enum class Style { kFile, kConsole };

using Align = TextTable::Align;
constexpr Align L = Align::kLeft;
constexpr Align R = Align::kRight;

std::string table_text(const TextTable& table, Style style) {
  return style == Style::kConsole ? table.aligned() : table.markdown();
}

std::string human(double value) { return human_number(value); }

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
    speedup_cell = speedup_text(*r.speedup_vs_eager, r.speedup_ci95);
    if (!r.speedup_ci95 && has_too_few_samples(r)) {
      speedup_cell += fmt::format(" (no interval: {} of {} samples)", r.samples_us.size(), *r.min_samples);
    }
  }
  std::string bandwidth_cell;
  if (r.roofline) {
    bandwidth_cell = human(r.roofline->achieved_gbps);
    if (r.roofline->bandwidth_share) {
      bandwidth_cell += fmt::format(" ({:.1f}%)", 100.0 * *r.roofline->bandwidth_share);
      // Above what a device-to-device copy measured: the data did not all come from DRAM.
      if (*r.roofline->bandwidth_share > 1.0) bandwidth_cell += " cache-resident";
    }
  }
  return {r.case_name,
          r.variant,
          to_string(r.method),
          status_text(r),
          r.stats ? human(r.stats->median) : "",
          r.issue_median_us ? human(*r.issue_median_us) : "",
          r.stats ? human(r.stats->iqr) : "",
          speedup_cell,
          r.published && r.published->speedup ? speedup_text(*r.published->speedup) : "",
          r.capture_ms ? human(*r.capture_ms) : "",
          bandwidth_cell};
}

std::vector<std::string> training_row(const ResultRecord& r) {
  const auto published =
      r.published && r.published->speedup ? speedup_text(*r.published->speedup) : std::string();
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

// The skipped variants of each case on one line per reason (the terminal's view): a CPU run skips
// most variants of every case for the same reason.
// "- gelu-small: skipped (CUDA graphs need a CUDA device): graph, graph:replay, jit+graph"
std::string folded_skips(const RunReport& report) {
  std::string out;
  std::vector<std::string> cases;
  for (const auto& r : report.records) {
    if (is_training(r) || r.status != RecordStatus::kSkipped) continue;
    if (std::find(cases.begin(), cases.end(), r.case_name) == cases.end()) cases.push_back(r.case_name);
  }
  for (const auto& name : cases) {
    std::vector<std::pair<std::string, std::vector<std::string>>> by_reason;  // in order of first use
    for (const auto& r : report.records) {
      if (is_training(r) || r.status != RecordStatus::kSkipped || r.case_name != name) continue;
      auto found = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& g) { return g.first == r.reason; });
      if (found == by_reason.end()) found = by_reason.insert(by_reason.end(), {r.reason, {}});
      found->second.push_back(r.variant);
    }
    for (const auto& [reason, variants] : by_reason) {
      out += fmt::format("- {}: skipped{}: {}\n", markdown_cell(name), reason.empty() ? "" : " (" + markdown_cell(reason) + ")",
                         markdown_cell(fmt::format("{}", fmt::join(variants, ", "))));
    }
  }
  return out;
}

// "3.10 ± 0.05": a ratio and half its 95% interval's width (none without an interval).
std::string ratio_text(double ratio, const std::optional<stats::Interval>& ci) {
  if (!ci) return fmt::format("{:.2f}", ratio);
  return fmt::format("{:.2f} ± {:.2f}", ratio, (ci->high - ci->low) / 2.0);
}

}  // namespace

std::vector<std::string> case_summaries(const RunReport& report) {
  std::vector<std::string> lines;
  std::vector<std::string> cases;
  for (const auto& r : report.records) {
    if (!is_training(r) && std::find(cases.begin(), cases.end(), r.case_name) == cases.end()) cases.push_back(r.case_name);
  }
  for (const auto& name : cases) {
    const ResultRecord* eager = nullptr;
    std::vector<const ResultRecord*> others;  // ok, with a speedup against eager
    for (const auto& r : report.records) {
      if (is_training(r) || r.case_name != name || r.status != RecordStatus::kOk) continue;
      if (r.variant == "eager") {
        eager = &r;
      } else if (r.speedup_vs_eager && *r.speedup_vs_eager > 0) {
        others.push_back(&r);
      }
    }
    if (eager == nullptr || others.empty()) continue;
    const auto fastest = *std::max_element(others.begin(), others.end(), [](const ResultRecord* a, const ResultRecord* b) {
      return *a->speedup_vs_eager < *b->speedup_vs_eager;
    });
    if (*fastest->speedup_vs_eager >= 1.0) {
      lines.push_back(fmt::format("{}: {} ran {} times faster than eager", name, fastest->variant,
                                  ratio_text(*fastest->speedup_vs_eager, fastest->speedup_ci95)));
    } else {
      // Eager is fastest: against the next, the ratio (and its interval) turned over.
      std::optional<stats::Interval> inverse;
      if (fastest->speedup_ci95 && fastest->speedup_ci95->low > 0) {
        inverse = stats::Interval{1.0 / fastest->speedup_ci95->high, 1.0 / fastest->speedup_ci95->low};
      }
      lines.push_back(fmt::format("{}: eager ran {} times faster than {}", name,
                                  ratio_text(1.0 / *fastest->speedup_vs_eager, inverse), fastest->variant));
    }
  }
  return lines;
}

namespace {

void append_benchmarks(std::string& out, const RunReport& report, Style style) {
  out += "\n## Benchmarks\n\n";
  TextTable table({{"case", L}, {"variant", L}, {"method", L}, {"status", L}, {"median (us)", R}, {"host (us)", R},
                   {"IQR (us)", R}, {"speedup vs eager [95% CI]", R}, {"published speedup", R}, {"capture (ms)", R},
                   {"GB/s (share of copy bandwidth)", R}});
  for (const auto& r : report.records) {
    if (is_training(r)) continue;
    if (style == Style::kConsole && r.status == RecordStatus::kSkipped) continue;  // folded below
    table.add_row(benchmark_row(r));
  }
  if (style == Style::kFile) {
    out += table.markdown();
    return;
  }
  if (!table.empty()) out += table.aligned() + "\n";
  out += folded_skips(report);
  const auto summaries = case_summaries(report);
  if (summaries.empty()) return;
  out += "\nSummary (the fastest variant of each case against eager; ± half the 95% interval):\n";
  for (const auto& line : summaries) out += "  " + markdown_cell(line) + "\n";
}

std::string mib(std::int64_t bytes) { return human_mib(static_cast<double>(bytes)); }

bool has_breakdown(const ResultRecord& r) {
  return !is_training(r) && (r.profile || r.memory || r.issue_median_us || r.back_to_back_us || !r.graphs.empty());
}

std::vector<std::string> breakdown_row(const ResultRecord& r) {
  std::string kernel_nodes;
  for (const GraphFacts& g : r.graphs) {
    if (g.kernel_nodes) kernel_nodes += (kernel_nodes.empty() ? "" : ", ") + std::to_string(*g.kernel_nodes);
  }
  if (r.graphs_per_step && *r.graphs_per_step > 1) {
    // A step captured in segments (a capture scope): their sum and how many, not a list of dozens.
    std::int64_t sum = 0;
    bool known = true;
    for (const GraphFacts& g : r.graphs) {
      known = known && g.kernel_nodes.has_value();
      sum += g.kernel_nodes.value_or(0);
    }
    kernel_nodes = fmt::format("{} in {} graphs / step", known ? std::to_string(sum) : "?", *r.graphs_per_step);
  }
  const auto& p = r.profile;
  return {r.case_name,
          r.variant,
          to_string(r.method),
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
void append_breakdown(std::string& out, const RunReport& report, Style style) {
  out += "\n## Where the time goes\n\n";
  TextTable table({{"case", L}, {"variant", L}, {"method", L}, {"kernels / step", R}, {"graph kernel nodes", R},
                   {"GPU busy (us / step)", R}, {"busy share", R}, {"host (us / step)", R}, {"host-bound", L},
                   {"back to back (us / step)", R}, {"peak allocated (MiB)", R}, {"peak reserved (MiB)", R},
                   {"graph pool (MiB)", R}});
  for (const auto& r : report.records) {
    if (has_breakdown(r)) table.add_row(breakdown_row(r));
  }
  out += table_text(table, style);
}

bool has_clocks_or_energy(const ResultRecord& r) {
  return r.sm_clock_start_mhz || r.sm_clock_end_mhz || r.gpu_conditions || r.energy;
}

// "1980 -> 1965", "1980 -> ?", "" when neither was read.
std::string start_end_text(std::optional<double> start, std::optional<double> end) {
  if (!start && !end) return "";
  const auto text = [](const std::optional<double>& v) { return v ? human(*v) : std::string("?"); };
  return text(start) + " -> " + text(end);
}

std::vector<std::string> clocks_row(const ResultRecord& r) {
  const std::optional<GpuConditions>& g = r.gpu_conditions;
  std::string throttle;
  if (g && g->throttle_reasons) throttle = g->throttle_reasons->empty() ? "none" : fmt::format("{}", fmt::join(*g->throttle_reasons, ", "));
  std::string energy;
  std::string vs_eager;
  if (r.energy) {
    energy = r.energy->joules_per_step ? human(1000.0 * *r.energy->joules_per_step) : "unavailable";
    if (r.energy->vs_eager) vs_eager = fmt::format("{:.2f}x", *r.energy->vs_eager);
  }
  return {r.case_name,
          r.variant,
          start_end_text(r.sm_clock_start_mhz, r.sm_clock_end_mhz),
          g && g->sm_clock_mean_mhz ? human(*g->sm_clock_mean_mhz) : "",
          g && g->sm_clock_reference_mhz ? human(*g->sm_clock_reference_mhz) : "",
          g ? start_end_text(g->memory_clock_mhz.start, g->memory_clock_mhz.end) : "",
          g ? start_end_text(g->temperature_c.start, g->temperature_c.end) : "",
          g ? start_end_text(g->power_w.start, g->power_w.end) : "",
          throttle,
          energy,
          vs_eager};
}

// The GPU's state around each variant's samples and its energy per step (docs/measuring.md).
void append_clocks_and_energy(std::string& out, const RunReport& report, Style style) {
  out += "\n## GPU clocks and energy\n\n";
  out += "Read through NVML just before each variant's first sample and just after its last; mean SM: over the "
         "readings after each sample; reference: the applications clock (else the maximum). Energy per step: "
         "NVML's energy counter over a block of the variant's steps run alone after sampling (--energy on); "
         "against eager below 1x saves energy.\n\n";
  TextTable table({{"case", L}, {"variant", L}, {"SM clock start -> end (MHz)", R}, {"mean SM (MHz)", R},
                   {"reference (MHz)", R}, {"memory clock (MHz)", R}, {"temperature (C)", R}, {"power (W)", R},
                   {"throttle reasons", L}, {"energy / step (mJ)", R}, {"energy vs eager", R}});
  std::string unavailable;
  for (const auto& r : report.records) {
    if (has_clocks_or_energy(r)) table.add_row(clocks_row(r));
    if (r.energy && !r.energy->joules_per_step && !r.energy->unavailable.empty()) {
      unavailable += fmt::format("- {} / {}: energy unavailable: {}\n", markdown_cell(r.case_name),
                                 markdown_cell(r.variant), markdown_cell(r.energy->unavailable));
    }
  }
  out += table_text(table, style);
  if (!unavailable.empty()) out += "\n" + unavailable;
}

void append_training(std::string& out, const RunReport& report, Style style) {
  out += "\n## Training\n\n";
  TextTable table({{"case", L}, {"variant", L}, {"epochs", R}, {"total (s)", R},
                   {"load / capture / training / testing (s)", R}, {"final test accuracy", R}, {"median step (us)", R},
                   {"published", R}});
  for (const auto& r : report.records) {
    if (is_training(r)) table.add_row(training_row(r));
  }
  out += table_text(table, style);
}

// "overlapped, 2 buckets of <= 25 MiB, fc1.weight in 4 chunks, bfloat16, copy-engine all-reduce"
std::string gradient_sync_text(const DataParallelFigures& d) {
  std::string text = d.overlapped ? "overlapped" : "after backward";
  if (d.buckets > 0) {
    text += fmt::format(", {} bucket{}", d.buckets, d.buckets == 1 ? "" : "s");
    if (d.bucket_cap_bytes > 0) text += " of <= " + mib(d.bucket_cap_bytes) + " MiB";
  }
  for (const GradientChunks& c : d.chunked_gradients) text += fmt::format(", {} in {} chunks", c.param, c.rows.size());
  if (d.grad_dtype != "float32") text += ", " + d.grad_dtype;
  if (d.grad_transport != "collective") text += ", " + d.grad_transport + " all-reduce";
  return text;
}

// "81% (79-83%)": the scaling efficiency and its interval; "103%* (99-106%)" above 100%.
std::string scaling_text(const DataParallelFigures& d) {
  if (!d.scaling_efficiency) return "";
  std::string text = fmt::format("{:.0f}%{}", 100.0 * *d.scaling_efficiency, *d.scaling_efficiency > 1.0 ? "*" : "");
  if (d.scaling_ci95) text += fmt::format(" ({:.0f}-{:.0f}%)", 100.0 * d.scaling_ci95->low, 100.0 * d.scaling_ci95->high);
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
          scaling_text(d),
          r.speedup_vs_eager ? speedup_text(*r.speedup_vs_eager) : "",
          identical,
          fmt::format("{} x {}", d.world_size, d.samples_per_rank)};
}

// "nccl 2.27.5 on 2 nodes of 1 rank (1 host), over NET/Socket (how that is known), under
// NCCL_MIN_NCHANNELS=32, NCCL_NVLS_ENABLE=0": what the records' all-reduces ran on.
std::string communication_text(const DataParallelFigures& d) {
  std::string text = d.backend;
  if (!d.backend_version.empty()) text += " " + d.backend_version;
  if (!d.ranks_per_node.empty()) {
    text += fmt::format(" on {}{}", nodes_text(d.ranks_per_node),
                        d.hosts > 0 ? fmt::format(" ({} host{})", d.hosts, d.hosts == 1 ? "" : "s") : "");
  }
  if (!d.transport.empty()) text += fmt::format(", over {} ({})", d.transport, d.transport_basis);
  if (!d.backend_settings) return text + " (its tuning variables were not recorded)";
  if (d.backend_settings->empty()) return text + ", no tuning variables set";
  std::vector<std::string> settings;
  for (const auto& [name, value] : *d.backend_settings) settings.push_back(name + "=" + value);
  return text + ", under " + fmt::format("{}", fmt::join(settings, ", "));
}

void append_data_parallel(std::string& out, const RunReport& report, Style style) {
  out += "\n## Data-parallel\n\n";
  out += "Step times are device time per step on each rank; the world's step is the slowest rank's. "
         "Without all-reduce: the same step on each rank's shard alone, timed in the same run; exposed "
         "all-reduce: the world's step minus that, the communication the backward pass did not hide. "
         "Scaling efficiency: the ratio of two medians, rank 0 alone's step (one rank with nothing to average, "
         "timed in the same run while the other ranks waited) over the slowest rank's step with N ranks, that is samples/s with N "
         "ranks over N times those of one; in brackets its 95% bootstrap interval; above 100% is marked * "
         "and the record's warnings say why.\n\n";
  TextTable table({{"case", L}, {"variant", L}, {"ranks", R}, {"step median / slowest rank (us)", R},
                   {"without all-reduce (us)", R}, {"exposed all-reduce (us)", R}, {"all-reduce alone (us)", R},
                   {"gradients", L}, {"samples/s", R}, {"one rank alone (us)", R}, {"scaling efficiency", R},
                   {"speedup vs eager", R}, {"params identical (max error vs one process)", R}, {"global batch", R}});
  std::vector<std::string> communication;  // distinct, in order of first use
  for (const auto& r : report.records) {
    if (!r.data_parallel) continue;
    table.add_row(data_parallel_row(r));
    std::string text = communication_text(*r.data_parallel);
    if (std::find(communication.begin(), communication.end(), text) == communication.end()) {
      communication.push_back(std::move(text));
    }
  }
  out += table_text(table, style);
  for (const std::string& text : communication) out += "\nCommunication: " + markdown_cell(text) + "\n";
}

void append_warnings(std::string& out, const RunReport& report, Style style) {
  std::string lines;
  if (style == Style::kFile) {
    for (const auto& r : report.records) {
      for (const auto& warning : r.warnings) {
        lines += fmt::format("- {} / {}: {}\n", markdown_cell(r.case_name), markdown_cell(r.variant), markdown_cell(warning));
      }
    }
  } else {
    // The terminal's view: a warning that several records share, once, with how many and which.
    std::vector<std::pair<std::string, std::vector<std::string>>> by_text;  // in order of first use
    for (const auto& r : report.records) {
      for (const auto& warning : r.warnings) {
        auto found = std::find_if(by_text.begin(), by_text.end(), [&](const auto& g) { return g.first == warning; });
        if (found == by_text.end()) found = by_text.insert(by_text.end(), {warning, {}});
        found->second.push_back(r.case_name + " / " + r.variant);
      }
    }
    for (const auto& [warning, where] : by_text) {
      if (where.size() == 1) {
        lines += fmt::format("- {}: {}\n", markdown_cell(where.front()), markdown_cell(warning));
        continue;
      }
      constexpr std::size_t kNamed = 3;
      std::string which = fmt::format("{}", fmt::join(where.begin(), where.begin() + std::min(where.size(), kNamed), ", "));
      if (where.size() > kNamed) which += fmt::format(" and {} more", where.size() - kNamed);
      lines += fmt::format("- {} records: {} ({})\n", where.size(), markdown_cell(warning), markdown_cell(which));
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

std::string render(const RunReport& report, Style style) {
  const Environment& env = report.environment;
  std::string out = fmt::format("# graphbench: {}\n\n", env.suite.empty() ? "run" : markdown_cell(env.suite));
  out += device_line(env);
  if (!env.date_utc.empty()) out += "Date: " + markdown_cell(env.date_utc) + "\n";
  for (const auto& r : report.records) {
    if (!r.repetitions) continue;
    out += fmt::format("Repetitions: {}, each a process of its own; samples merged, intervals across the repetitions "
                       "(docs/measuring.md)\n",
                       r.repetitions->requested);
    break;
  }
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
  if (any_data_parallel) append_data_parallel(out, report, style);
  if (any_benchmark) append_benchmarks(out, report, style);
  out += sweeps_markdown(report);
  out += scopes_markdown(report);
  if (std::any_of(report.records.begin(), report.records.end(), has_breakdown)) append_breakdown(out, report, style);
  if (std::any_of(report.records.begin(), report.records.end(), has_clocks_or_energy)) {
    append_clocks_and_energy(out, report, style);
  }
  if (any_training) append_training(out, report, style);
  append_validation_notes(out, report);
  append_warnings(out, report, style);
  return out;
}

}  // namespace

std::string render_markdown(const RunReport& report) { return render(report, Style::kFile); }

std::string render_console(const RunReport& report) { return render(report, Style::kConsole); }

namespace {

std::string padded(const std::string& text, std::size_t width, TextTable::Align align) {
  const std::string pad(width - std::min(width, display_width(text)), ' ');
  return align == TextTable::Align::kRight ? pad + text : text + pad;
}

}  // namespace

std::size_t display_width(const std::string& text) {
  // Continuation bytes of a UTF-8 sequence are 10xxxxxx.
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) throw Error("TextTable: a row of the wrong number of cells");
  for (auto& cell : cells) cell = markdown_cell(cell);
  rows_.push_back(std::move(cells));
}

std::string TextTable::markdown() const {
  std::string out = "|";
  for (const auto& c : columns_) out += " " + c.header + " |";
  out += "\n|";
  for (const auto& c : columns_) out += c.align == Align::kRight ? "--:|" : "---|";
  out += "\n";
  for (const auto& row : rows_) {
    out += '|';
    for (const auto& cell : row) out += ' ' + cell + " |";
    out += '\n';
  }
  return out;
}

std::string TextTable::aligned() const {
  std::vector<std::size_t> kept;
  std::vector<std::size_t> widths;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    std::size_t width = 0;
    for (const auto& row : rows_) width = std::max(width, display_width(row[i]));
    if (width == 0 && !rows_.empty()) continue;  // empty on every row
    kept.push_back(i);
    widths.push_back(std::max(width, display_width(columns_[i].header)));
  }
  std::string out = "|";
  for (std::size_t k = 0; k < kept.size(); ++k) out += " " + padded(columns_[kept[k]].header, widths[k], Align::kLeft) + " |";
  out += "\n|";
  for (std::size_t k = 0; k < kept.size(); ++k) {
    const bool right = columns_[kept[k]].align == Align::kRight;
    out += std::string(widths[k] + (right ? 1 : 2), '-') + (right ? ":|" : "|");
  }
  out += "\n";
  for (const auto& row : rows_) {
    out += '|';
    for (std::size_t k = 0; k < kept.size(); ++k) out += " " + padded(row[kept[k]], widths[k], columns_[kept[k]].align) + " |";
    out += '\n';
  }
  return out;
}

}  // namespace graphbench
