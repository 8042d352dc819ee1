// A request to stop the run, made by SIGINT or SIGTERM (apps/graphbench installs the handlers)
// and polled at safe points: the sampler after each sample, a training run after each step, the
// suite runner between cases. The run then writes the cases that finished, marked interrupted,
// and exits 128 + the signal (130 for SIGINT, 143 for SIGTERM). See docs/results.md.
#pragma once

#include "graphbench/core/base/errors.h"

namespace graphbench {

// Async-signal-safe: records the first signal; later calls keep it.
void request_stop(int signal_number) noexcept;

// Whether a stop was requested, and by which signal (0: none).
bool stop_requested() noexcept;
int stop_signal() noexcept;

// "SIGINT", "SIGTERM", or "signal N".
const char* signal_name(int signal_number) noexcept;

// Forgets a request (tests, which share one process).
void clear_stop_request() noexcept;

// Thrown by a loop that cannot simply return early (a training run) when a stop was requested;
// the suite runner drops the case it cut short.
class Interrupted : public Error {
 public:
  using Error::Error;
};

// Throws Interrupted when a stop was requested.
void throw_if_stop_requested();

}  // namespace graphbench
