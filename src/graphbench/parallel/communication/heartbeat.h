// A rank's progress mark (Communicator calls, training steps), watched by cases/progress_watchdog.h.
#pragma once

#include <cstdint>

namespace graphbench::parallel {

void heartbeat();

// Nanoseconds since this process's last heartbeat() (or its start).
std::int64_t nanoseconds_since_heartbeat();

}  // namespace graphbench::parallel
