// The progress mark of a rank: every collective and store call of a Communicator that returns, and
// every training step of a data-parallel case, calls heartbeat(); the runner's ProgressWatchdog
// (parallel/cases/progress_watchdog.h) ends a rank that has not beaten for its timeout. Here, below the
// communicator, so that the communication layer marks progress without knowing who watches.
#pragma once

#include <cstdint>

namespace graphbench::parallel {

void heartbeat();

// Nanoseconds on the steady clock since the last heartbeat() of this process (since its start if
// there was none).
std::int64_t nanoseconds_since_heartbeat();

}  // namespace graphbench::parallel
