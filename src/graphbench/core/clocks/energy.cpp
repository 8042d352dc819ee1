#include "graphbench/core/clocks/energy.h"

#include <fmt/format.h>

namespace graphbench {

EnergyPerStep energy_per_step(const EnergyReadings& r) {
  EnergyPerStep e;
  e.steps = r.steps;
  e.seconds = r.seconds;
  if (r.updates >= 1 && r.seconds > 0) e.update_interval_ms = 1000.0 * r.seconds / r.updates;
  if (!r.counter_available) {
    e.unavailable = "NVML's energy counter cannot be read here (needs NVML and a Volta or newer GPU)";
    return e;
  }
  if (!r.not_run.empty()) {
    e.unavailable = r.not_run;
    return e;
  }
  if (r.updates < kEnergyUpdatesNeeded || !r.first_mj || !r.last_mj) {
    e.unavailable = fmt::format("too short to resolve: the energy counter updated {} times in {:.2f} s of steps, {} "
                                "are needed",
                                r.updates, r.block_seconds, kEnergyUpdatesNeeded);
    return e;
  }
  if (*r.last_mj < *r.first_mj) {
    e.unavailable = "the energy counter went backwards (the driver was reloaded?)";
    return e;
  }
  if (r.steps <= 0) {
    e.unavailable = "no steps between the counter's first and last update";
    return e;
  }
  e.joules = static_cast<double>(*r.last_mj - *r.first_mj) / 1000.0;
  e.joules_per_step = *e.joules / static_cast<double>(r.steps);
  return e;
}

void fill_energy_vs_eager(const std::vector<ResultRecord*>& case_records) {
  const ResultRecord* eager = nullptr;
  for (const ResultRecord* r : case_records) {
    if (r->variant == "eager" && r->energy && r->energy->joules_per_step) eager = r;
  }
  if (eager == nullptr || *eager->energy->joules_per_step <= 0) return;
  for (ResultRecord* r : case_records) {
    if (!r->energy || !r->energy->joules_per_step) continue;
    r->energy->vs_eager = *r->energy->joules_per_step / *eager->energy->joules_per_step;
  }
}

}  // namespace graphbench
