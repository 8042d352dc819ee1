#include "graphbench/core/report/sweep_sections.h"

#include "graphbench/core/report/against_eager_text.h"
#include "graphbench/core/report/json_or_null.h"
#include "graphbench/core/report/markdown_text.h"
#include "graphbench/core/sweep/sweep_verdict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace graphbench {

using nlohmann::json;

namespace {

json sweep_point_to_json(const SweepPointFigures& p) {
  json out = {{"value", p.value}};
  if (!add_against_eager(p, "graph_us", out)) return out;
  if (p.energy_measured) {
    out["eager_energy_j_per_step"] = json_or_null(p.eager_j_per_step);
    out["graph_energy_j_per_step"] = json_or_null(p.graph_j_per_step);
  }
  return out;
}

json sweep_plan_to_json(const SizePlan& s) {
  return {{"value", s.value},          {"action", s.action},        {"pad_to", json_or_null(s.pad_to)},
          {"eager_us", s.eager_us},    {"replay_us", json_or_null(s.replay_us)}, {"speedup", json_or_null(s.speedup)}};
}

// MiB, or `none` without a figure.
std::string sweep_mib(const std::optional<std::int64_t>& bytes, const char* none = "") {
  return bytes ? human_mib(static_cast<double>(*bytes)) : none;
}

std::string sweep_values_text(const std::vector<std::int64_t>& values) {
  if (values.empty()) return "none";
  return fmt::format("{}", fmt::join(values, ", "));
}

std::string sweep_plan_text(const SizePlan& s) {
  if (s.action == "replay") return "capture";
  if (s.action == "pad") return fmt::format("pad to {} ({:.2f}x)", *s.pad_to, *s.speedup);
  return "eager";
}

std::string sweep_point_row(const SweepPointFigures& p, const std::vector<SizePlan>& plan) {
  if (!p.ok) return fmt::format("| {} | | | not measured: {} | | | | | |\n", p.value, markdown_cell(p.reason));
  const auto planned = std::find_if(plan.begin(), plan.end(), [&](const SizePlan& s) { return s.value == p.value; });
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", p.value, human_number(p.eager_us),
                     human_number(p.step_us), speedup_text(p.speedup, p.speedup_ci95),
                     p.capture_ms ? human_number(*p.capture_ms) : "", p.warmup_ms ? human_number(*p.warmup_ms) : "",
                     sweep_mib(p.pool_bytes), break_even_cell(p), planned != plan.end() ? sweep_plan_text(*planned) : "");
}

// How a sweep's verdict words one property: "faster than eager with 95% confidence", ...
struct RunWords {
  const char* holds;      // "faster than eager with 95% confidence"
  const char* fails;      // "not faster than eager with 95% confidence"
  const char* again;      // "faster"
  const char* nowhere;    // "not faster than eager with 95% confidence at any size"
};

constexpr RunWords kFasterWords{"faster than eager with 95% confidence", "not faster than eager with 95% confidence",
                                "faster", "not faster than eager with 95% confidence at any size"};
constexpr RunWords kPaysWords{"pays at least 5%", "pays less than 5%", "pays 5%", "pays at least 5% nowhere"};

// "faster than eager with 95% confidence up to batch=4096 (not at 8192; faster again at 16384)":
// where the graph is faster (or pays) from the smallest size on, and the sizes that break the pattern.
std::string leading_run_text(const std::string& axis, const RunWords& words, const std::optional<std::int64_t>& up_to,
                             const std::optional<std::int64_t>& stops_at, const std::vector<std::int64_t>& again_at) {
  if (up_to) {
    const std::string text = fmt::format("{} up to {}={}", words.holds, axis, *up_to);
    if (again_at.empty()) return text;
    return fmt::format("{} (not at {}; {} again at {})", text, *stops_at, words.again, fmt::join(again_at, ", "));
  }
  if (again_at.empty()) return words.nowhere;
  return fmt::format("{} at the smallest size, {}={}; {} at {}", words.fails, axis, *stops_at, words.again,
                     fmt::join(again_at, ", "));
}

std::string capitalized(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

json serving_list_to_json(const ServingListCost& l) {
  return {{"sizes", l.sizes},
          {"missing", l.missing},
          {"graphs", l.graphs},
          {"mean_step_us", json_or_null(l.mean_step_us)},
          {"eager_batches", l.eager_batches},
          {"eager_interpolated", l.eager_interpolated},
          {"eager_unmeasured", l.eager_unmeasured},
          {"pool_each_bytes", json_or_null(l.pool_each_bytes)},
          {"shared_pool_bytes", json_or_null(l.shared_pool_bytes)},
          {"largest_pool_bytes", json_or_null(l.largest_pool_bytes)},
          {"capture_ms", json_or_null(l.capture_ms)}};
}

// A long list shortened: "1, 2, 4, 8, 16, ..., 256 (35 sizes)".
std::string serving_short_sizes(const std::vector<std::int64_t>& sizes) {
  if (sizes.empty()) return "none";
  if (sizes.size() <= 8) return fmt::format("{}", fmt::join(sizes, ", "));
  return fmt::format("{}, ..., {} ({} sizes)", fmt::join(sizes.begin(), sizes.begin() + 5, ", "), sizes.back(),
                     sizes.size());
}

std::string serving_list_row(const char* name, const ServingListCost& l) {
  std::string pools = sweep_mib(l.pool_each_bytes, "?");
  if (l.shared_pool_bytes) {
    pools += fmt::format(" (shared: {})", sweep_mib(l.shared_pool_bytes, "?"));
  } else if (l.largest_pool_bytes) {
    pools += fmt::format(" (shared: at least {})", sweep_mib(l.largest_pool_bytes, "?"));
  }
  std::string eager = std::to_string(l.eager_batches);
  if (l.eager_interpolated > 0) eager += fmt::format(" ({} interpolated)", l.eager_interpolated);
  std::string sizes = serving_short_sizes(l.sizes);
  if (!l.missing.empty()) sizes += fmt::format("; not measured: {}", serving_short_sizes(l.missing));
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", name, sizes, l.graphs,
                     l.mean_step_us ? human_number(*l.mean_step_us) : "?", eager, pools,
                     l.capture_ms ? human_number(*l.capture_ms) : "?");
}

std::string serving_ratio_text(const std::optional<double>& r, const char* what) {
  return r ? fmt::format("{:.2f}x {}", *r, what) : fmt::format("? {}", what);
}

json serving_comparison_to_json(const ServingComparison& c) {
  return {{"max_batch", c.max_batch},
          {"graphbench", serving_list_to_json(c.graphbench)},
          {"vllm", serving_list_to_json(c.vllm)},
          {"mean_step_ratio", json_or_null(c.mean_step_ratio)},
          {"graphs_ratio", json_or_null(c.graphs_ratio)},
          {"pool_ratio", json_or_null(c.pool_ratio)},
          {"shared_pool_ratio_at_most", json_or_null(c.shared_pool_ratio_at_most)},
          {"capture_ratio", json_or_null(c.capture_ratio)},
          {"step_within", kServingStepWithin},
          {"at_most_share", kServingAtMostShare},
          {"meets_aim", json_or_null(c.meets_aim)},
          {"not_judged", c.not_judged.empty() ? json(nullptr) : json(c.not_judged)},
          {"vllm_unmeasured", c.vllm_unmeasured}};
}

std::string serving_comparison_markdown(const ServingComparison& c) {
  std::string out = fmt::format(
      "\nAgainst vLLM's default list, every real batch from 1 to {} replaying the smallest captured size at or "
      "above it (eagerly above the largest):\n\n",
      c.max_batch);
  out += "| list | captured sizes | graphs | mean step (us) | batches run eagerly | pools, one each (MiB) | capture + "
         "warm-up (ms) |\n";
  out += "|---|---|--:|--:|--:|--:|--:|\n";
  out += serving_list_row("graphbench", c.graphbench);
  out += serving_list_row("vLLM default", c.vllm);
  std::string pool = serving_ratio_text(c.pool_ratio, "the pool memory");
  if (c.shared_pool_ratio_at_most) {
    pool += fmt::format(" (a pool each; sharing one pool, as vLLM does: at most {:.2f}x)", *c.shared_pool_ratio_at_most);
  }
  out += fmt::format("\n- graphbench's list against vLLM's: {}, {}, {}, {}: ",
                     serving_ratio_text(c.mean_step_ratio, "the mean step"), serving_ratio_text(c.graphs_ratio, "the graphs"),
                     pool, serving_ratio_text(c.capture_ratio, "the capture time"));
  if (!c.meets_aim) {
    out += fmt::format("not judged: {}.\n", markdown_cell(c.not_judged));
  } else {
    out += fmt::format("{} the aim (within {:.0f}% of vLLM's mean step with at most half its graphs and pool memory)",
                       *c.meets_aim ? "meets" : "misses", (kServingStepWithin - 1.0) * 100.0);
    out += c.vllm_unmeasured.empty()
               ? ".\n"
               : fmt::format(", judged over the measured sizes: vLLM's list without {}, which the sweep did not measure.\n",
                             serving_short_sizes(c.vllm_unmeasured));
  }
  return out;
}

std::string sweep_verdict_lines(const SweepVerdict& v) {
  const std::string faster = leading_run_text(v.axis, kFasterWords, v.crossover, v.not_faster_at, v.faster_again_at);
  const std::string pays = leading_run_text(v.axis, kPaysWords, v.pays_up_to, v.not_paying_at, v.pays_again_at);
  std::string out = "- " + capitalized(faster) + "; " + pays;
  if (!v.not_measured.empty()) {
    out += fmt::format(" (over the measured sizes; not measured at {}={}: neither faster nor slower, not judged)", v.axis,
                       fmt::join(v.not_measured, ", "));
  }
  out += ".\n";
  out += fmt::format("- Capture at {}: {}.", v.axis, sweep_values_text(v.capture_sizes));
  if (!v.capture_sizes.empty()) {
    out += fmt::format(" Memory of keeping them: {} MiB in one pool each", sweep_mib(v.separate_pools_bytes, "?"));
    if (v.shared_pool_bytes) {
      out += fmt::format(", {} MiB sharing one pool", sweep_mib(v.shared_pool_bytes));
    } else if (!v.shared_pool_error.empty()) {
      out += fmt::format(" (one shared pool not measured: {})", markdown_cell(v.shared_pool_error));
    }
    out += ".";
  }
  out += "\n";
  std::vector<std::string> padded;
  std::vector<std::string> eager;
  for (const SizePlan& s : v.plan) {
    if (s.action == "pad") padded.push_back(fmt::format("{} to {}", s.value, *s.pad_to));
    if (s.action == "eager") eager.push_back(std::to_string(s.value));
  }
  if (!padded.empty()) out += fmt::format("- Pad: {}.\n", fmt::join(padded, ", "));
  if (!eager.empty()) out += fmt::format("- Run eagerly: {}.\n", fmt::join(eager, ", "));
  const std::string energy = sweep_energy_text(v);
  if (!energy.empty()) out += "- " + energy + "\n";
  return out;
}

}  // namespace

std::string sweep_energy_text(const SweepVerdict& v) {
  std::vector<std::string> saves;
  std::vector<std::string> costs;
  std::vector<std::string> unresolved;
  bool any = false;
  for (const SweepPointFigures& p : v.points) {
    if (!p.ok || !p.energy_measured) continue;
    any = true;
    if (!p.eager_j_per_step || !p.graph_j_per_step || *p.eager_j_per_step <= 0) {
      unresolved.push_back(std::to_string(p.value));
      continue;
    }
    const double eager = *p.eager_j_per_step;
    const double graph = *p.graph_j_per_step;
    const std::string mj = human_number(1000.0 * std::fabs(eager - graph));
    if (graph <= eager) {
      saves.push_back(fmt::format("{:.0f}% ({} mJ) at {}", 100.0 * (1.0 - graph / eager), mj, p.value));
    } else {
      costs.push_back(fmt::format("{:.0f}% more ({} mJ) at {}", 100.0 * (graph / eager - 1.0), mj, p.value));
    }
  }
  if (!any) return "";
  std::vector<std::string> parts;
  if (!saves.empty()) parts.push_back(fmt::format("the graph saves {}", fmt::join(saves, ", ")));
  if (!costs.empty()) parts.push_back(fmt::format("costs {}", fmt::join(costs, ", ")));
  if (!unresolved.empty()) parts.push_back(fmt::format("not resolved at {}", fmt::join(unresolved, ", ")));
  return fmt::format("Energy per step: {}.", fmt::join(parts, "; "));
}

json sweeps_to_json(const RunReport& report) {
  json out = json::array();
  for (const SweepVerdict& v : sweep_verdicts(report)) {
    json points = json::array();
    for (const auto& p : v.points) points.push_back(sweep_point_to_json(p));
    json plan = json::array();
    for (const auto& s : v.plan) plan.push_back(sweep_plan_to_json(s));
    out.push_back({{"case", v.group},
                   {"axis", v.axis},
                   {"variant", v.variant},
                   {"crossover", json_or_null(v.crossover)},
                   {"not_faster_at", json_or_null(v.not_faster_at)},
                   {"not_measured", v.not_measured},
                   {"faster_again_at", v.faster_again_at},
                   {"pays_up_to", json_or_null(v.pays_up_to)},
                   {"not_paying_at", json_or_null(v.not_paying_at)},
                   {"pays_again_at", v.pays_again_at},
                   {"pays_at_least", kPaysAtLeast},
                   {"capture_sizes", v.capture_sizes},
                   {"separate_pools_bytes", json_or_null(v.separate_pools_bytes)},
                   {"shared_pool_bytes", json_or_null(v.shared_pool_bytes)},
                   {"shared_pool_error", v.shared_pool_error.empty() ? json(nullptr) : json(v.shared_pool_error)},
                   {"points", points},
                   {"plan", plan}});
    if (serving_comparison_applies(v)) out.back()["vllm_comparison"] = serving_comparison_to_json(compare_with_vllm(v));
  }
  return out;
}

std::string sweeps_markdown(const RunReport& report) {
  const bool any_sweep = std::any_of(report.records.begin(), report.records.end(),
                                     [](const ResultRecord& r) { return r.sweep.has_value(); });
  if (!any_sweep) return "";
  std::string out = "\n## Sweeps\n\n";
  out += "Each graph variant against eager at every size. Break-even: replays that repay the capture and its "
         "warm-up, and those replays in seconds. Plan: what to do with a real size: replay its own graph, pad "
         "it up to the next captured size, or run it eagerly.\n";
  const auto verdicts = sweep_verdicts(report);
  if (verdicts.empty()) out += "\nNo graph variant was measured at any point (a CPU run, or every graph skipped).\n";
  for (const SweepVerdict& v : verdicts) {
    out += fmt::format("\n### {} over {}: {}\n\n", markdown_cell(v.group), markdown_cell(v.axis), markdown_cell(v.variant));
    out += sweep_verdict_lines(v);
    out += fmt::format("\n| {} | eager (us) | graph (us) | speedup [95% CI] | capture (ms) | warm-up (ms) | pool (MiB) | "
                       "break-even replays (s) | plan |\n",
                       markdown_cell(v.axis));
    out += "|--:|--:|--:|--:|--:|--:|--:|--:|---|\n";
    for (const auto& p : v.points) out += sweep_point_row(p, v.plan);
    if (serving_comparison_applies(v)) out += serving_comparison_markdown(compare_with_vllm(v));
  }
  return out;
}

}  // namespace graphbench
