#include "graphbench/core/report/serving_sections.h"

#include "graphbench/core/report/json_or_null.h"
#include "graphbench/core/report/markdown_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace graphbench {

using nlohmann::json;

namespace {

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

std::string serving_mib(const std::optional<std::int64_t>& bytes) {
  return bytes ? human_number(static_cast<double>(*bytes) / (1024.0 * 1024.0)) : "?";
}

std::string serving_list_row(const char* name, const ServingListCost& l) {
  std::string pools = serving_mib(l.pool_each_bytes);
  if (l.shared_pool_bytes) {
    pools += fmt::format(" (shared: {})", serving_mib(l.shared_pool_bytes));
  } else if (l.largest_pool_bytes) {
    pools += fmt::format(" (shared: at least {})", serving_mib(l.largest_pool_bytes));
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

}  // namespace

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

}  // namespace graphbench
