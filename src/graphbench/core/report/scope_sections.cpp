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

json scope_figures_to_json(const ScopeFigures& f) {
  json out = {{"scope", f.scope}, {"case", f.case_name}};
  if (!add_against_eager(f, "step_us", out)) return out;
  out["gain_share_ci95"] = interval_or_null(f.gain_share_ci95);
  out["graphs_per_step"] = json_or_null(f.graphs_per_step);
  out["launches_per_step"] = json_or_null(f.launches_per_step);
  out["host_us"] = json_or_null(f.host_us);
  out["captured_share"] = json_or_null(f.captured_share);
  out["gain_share"] = json_or_null(f.gain_share);
  return out;
}

std::optional<double> setup_ms(const ScopeFigures& f) {
  if (!f.capture_ms) return std::nullopt;
  return *f.capture_ms + f.warmup_ms.value_or(0.0);
}

std::string percent(double share) { return fmt::format("{:.0f}%", 100.0 * share); }

// "97% [91%-103%]": a share with the range its step times' intervals allow.
std::string share_text(const ScopeFigures& f) {
  const std::string text = percent(*f.gain_share);
  if (!f.gain_share_ci95) return text;
  const std::string low = percent(f.gain_share_ci95->low), high = percent(f.gain_share_ci95->high);
  return low == text && high == text ? text : fmt::format("{} [{}-{}]", text, low, high);
}

std::string signed_text(double value, const std::string& text) { return (value >= 0 ? "+" : "-") + text; }

// "layer: +12.3 ms of capture and warm-up, +40 MiB of pool, for 99% of the gain": what a wider
// scope adds to the narrowest that keeps enough.
std::string wider_cost(const ScopeFigures& wider, const ScopeFigures& chosen) {
  std::vector<std::string> parts;
  const auto wider_setup = setup_ms(wider);
  const auto chosen_setup = setup_ms(chosen);
  if (wider_setup && chosen_setup) {
    const double d = *wider_setup - *chosen_setup;
    parts.push_back(signed_text(d, human_number(std::fabs(d))) + " ms of capture and warm-up");
  }
  if (wider.pool_bytes && chosen.pool_bytes) {
    const double d = static_cast<double>(*wider.pool_bytes - *chosen.pool_bytes);
    parts.push_back(signed_text(d, human_mib(std::fabs(d))) + " MiB of pool");
  }
  if (wider.launches_per_step && chosen.launches_per_step) {
    parts.push_back(fmt::format("{} launch{} per step", human_number(*wider.launches_per_step),
                                *wider.launches_per_step == 1.0 ? "" : "es"));
  }
  std::string text = markdown_cell(wider.scope) + ": ";
  if (!parts.empty()) text += fmt::format("{}, ", fmt::join(parts, ", "));
  return text + fmt::format("keeps {} of the gain", share_text(wider));
}

std::string scope_verdict_lines(const ScopeVerdict& v) {
  std::string out;
  if (v.instead_of_full) {
    const auto chosen = std::find_if(v.scopes.begin(), v.scopes.end(),
                                     [&](const ScopeFigures& f) { return f.ok && f.scope == *v.instead_of_full; });
    out += fmt::format("- The whole step cannot be captured (its capture failed: it ran eagerly). The fastest scope "
                       "that captures: {}, {:.2f}x over eager in {} graph{} per step.\n",
                       markdown_cell(chosen->scope), chosen->speedup,
                       chosen->graphs_per_step ? std::to_string(*chosen->graphs_per_step) : "?",
                       chosen->graphs_per_step && *chosen->graphs_per_step == 1 ? "" : "s");
  } else if (!v.narrowest) {
    out += fmt::format("- No verdict: {}.\n", markdown_cell(v.no_verdict));
  } else {
    const auto chosen = std::find_if(v.scopes.begin(), v.scopes.end(),
                                     [&](const ScopeFigures& f) { return f.ok && f.scope == *v.narrowest; });
    if (chosen->scope == "full") {
      // The best of the narrower ones, for the record of how far they fall short.
      const ScopeFigures* best = nullptr;
      for (const ScopeFigures& f : v.scopes) {
        if (f.ok && f.scope != "full" && (best == nullptr || *f.gain_share > *best->gain_share)) best = &f;
      }
      out += fmt::format("- No scope narrower than the whole step keeps {} of the full graph's gain{}: capture "
                         "the whole step (full).\n",
                         percent(kKeepsAtLeast),
                         best != nullptr ? fmt::format(" (the most: {}, {})", markdown_cell(best->scope),
                                                       share_text(*best))
                                         : "");
    } else {
      out += fmt::format("- The narrowest scope that keeps at least {} of the full graph's gain: {} ({}{}).",
                         percent(kKeepsAtLeast), markdown_cell(chosen->scope), share_text(*chosen),
                         chosen->gain_share_ci95 && chosen->gain_share_ci95->low < kKeepsAtLeast
                             ? fmt::format("; within the step times' intervals it may keep less than {}",
                                           percent(kKeepsAtLeast))
                             : "");
      std::vector<std::string> costs;
      for (auto it = std::next(chosen); it != v.scopes.end(); ++it) {
        if (it->ok) costs.push_back(wider_cost(*it, *chosen));
      }
      if (!costs.empty()) out += fmt::format(" Each wider one, against it: {}.", fmt::join(costs, "; "));
      out += "\n";
    }
  }
  std::vector<std::string> missing;
  for (const ScopeFigures& f : v.scopes) {
    if (!f.ok) missing.push_back(fmt::format("{} ({})", markdown_cell(f.scope), markdown_cell(f.reason)));
  }
  if (!missing.empty()) out += fmt::format("- Not measured: {}.\n", fmt::join(missing, "; "));
  return out;
}

std::string scope_row(const ScopeFigures& f) {
  if (!f.ok) return fmt::format("| {} | not measured: {} | | | | | | | | |\n", markdown_cell(f.scope), markdown_cell(f.reason));
  const auto setup = setup_ms(f);
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(f.scope),
                     human_number(f.step_us), speedup_text(f.speedup, f.speedup_ci95),
                     f.graphs_per_step ? std::to_string(*f.graphs_per_step) : "", f.launches_per_step ? human_number(*f.launches_per_step) : "",
                     f.host_us ? human_number(*f.host_us) : "", setup ? human_number(*setup) : "",
                     f.pool_bytes ? human_mib(static_cast<double>(*f.pool_bytes)) : "",
                     f.gain_share ? share_text(f) : "", break_even_cell(f));
}

}  // namespace

json scopes_to_json(const RunReport& report) {
  json out = json::array();
  for (const ScopeVerdict& v : scope_verdicts(report.records)) {
    json scopes = json::array();
    for (const ScopeFigures& f : v.scopes) scopes.push_back(scope_figures_to_json(f));
    out.push_back({{"case", v.group},
                   {"variant", v.variant},
                   {"order", v.order},
                   {"keeps_at_least", kKeepsAtLeast},
                   {"narrowest", v.narrowest ? json(*v.narrowest) : json(nullptr)},
                   {"no_verdict", v.no_verdict.empty() ? json(nullptr) : json(v.no_verdict)},
                   {"instead_of_full", v.instead_of_full ? json(*v.instead_of_full) : json(nullptr)},
                   {"scopes", scopes}});
  }
  return out;
}

std::string scopes_markdown(const RunReport& report) {
  const auto verdicts = scope_verdicts(report.records);
  if (verdicts.empty()) return "";
  std::string out = "\n## Scopes\n\n";
  out += fmt::format("Each graph variant at every capture scope, narrowest first (docs/scopes.md). Kept: the share "
                     "of the full graph's gain the scope keeps, (eager - scope) / (eager - full), from the step "
                     "times, with the eager of the full scope's run. Launches: graph replays plus kernels launched outside the graphs, "
                     "per step. The verdict: the narrowest scope that keeps at least {}.\n",
                     percent(kKeepsAtLeast));
  for (const ScopeVerdict& v : verdicts) {
    out += fmt::format("\n### {}: {}\n\n", markdown_cell(v.group), markdown_cell(v.variant));
    if (std::none_of(v.scopes.begin(), v.scopes.end(), [](const ScopeFigures& f) { return f.ok; })) {
      // A CPU run, or every graph skipped: one line, each distinct reason once.
      std::vector<std::string> reasons;
      for (const ScopeFigures& f : v.scopes) {
        if (std::find(reasons.begin(), reasons.end(), f.reason) == reasons.end()) reasons.push_back(f.reason);
      }
      for (std::string& r : reasons) r = markdown_cell(r);
      out += fmt::format("- Not measured at any scope: {}.\n", fmt::join(reasons, "; "));
      continue;
    }
    out += scope_verdict_lines(v);
    out += fmt::format("- Order: {}.\n", v.order == "captured share"
                                             ? "by the share of the step's kernels the graphs hold, least first"
                                             : "by scope kind (modules=REGEX, attention-out, layer, fwd-bwd, auto, full)");
    out += "\n| scope | step (us) | speedup [95% CI] | graphs / step | launches / step | host (us / step) | capture + "
           "warm-up (ms) | pool (MiB) | kept | break-even replays (s) |\n";
    out += "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
    for (const ScopeFigures& f : v.scopes) out += scope_row(f);
  }
  return out;
}

}  // namespace graphbench
