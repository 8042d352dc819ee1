#include "graphbench/core/base/interrupt.h"

#include <atomic>
#include <csignal>

namespace graphbench {

namespace {

// A lock-free atomic is safe to write from a signal handler.
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the stop flag must be lock-free to be set from a signal handler");

}  // namespace

void request_stop(int signal_number) noexcept {
  int none = 0;
  g_stop_signal.compare_exchange_strong(none, signal_number == 0 ? -1 : signal_number);
}

bool stop_requested() noexcept { return g_stop_signal.load() != 0; }

int stop_signal() noexcept {
  const int value = g_stop_signal.load();
  return value < 0 ? 0 : value;
}

const char* signal_name(int signal_number) noexcept {
  switch (signal_number) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

void clear_stop_request() noexcept { g_stop_signal.store(0); }

void throw_if_stop_requested() {
  if (stop_requested()) throw Interrupted(std::string("stopped by ") + signal_name(stop_signal()));
}

}  // namespace graphbench
