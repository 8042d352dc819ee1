#include "graphbench/parallel/communication/heartbeat.h"

#include <atomic>
#include <chrono>

namespace graphbench::parallel {

namespace {

std::atomic<std::int64_t> g_last_beat_ns{0};

std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void heartbeat() { g_last_beat_ns.store(steady_now_ns(), std::memory_order_relaxed); }

std::int64_t nanoseconds_since_heartbeat() {
  return steady_now_ns() - g_last_beat_ns.load(std::memory_order_relaxed);
}

}  // namespace graphbench::parallel
