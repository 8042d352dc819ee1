#include "graphbench/core/report/sweep_energy.h"

#include "graphbench/core/report/markdown_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <vector>

namespace graphbench {

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

}  // namespace graphbench
