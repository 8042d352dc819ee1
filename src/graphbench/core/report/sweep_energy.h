// The energy part of a sweep's verdict: at which sizes the graph saves energy per step against
// eager and by how much, and where it costs more (docs/results.md, "Sweeps"), in the words of
// results.md. Plain arithmetic on the verdict's points.
#pragma once

#include "graphbench/core/sweep/sweep_verdict.h"

#include <string>

namespace graphbench {

// "Energy per step: the graph saves 35% (0.12 mJ) at 64, 12% (0.05 mJ) at 256; costs 4% more
// (0.02 mJ) at 8192; not resolved at 16384." Sizes whose two figures are equal count as saving
// 0%. "" when no point of the sweep measured energy (a run without --energy on).
std::string sweep_energy_text(const SweepVerdict& verdict);

}  // namespace graphbench
