// A rank's progress mark: every returning Communicator call and data-parallel training step beats;
// ProgressWatchdog (parallel/cases/progress_watchdog.h) ends a rank silent for its timeout.
#pragma once

#include <cstdint>

namespace graphbench::parallel {

void heartbeat();

// Nanoseconds since this process's last heartbeat() (or its start).
std::int64_t nanoseconds_since_heartbeat();

}  // namespace graphbench::parallel
