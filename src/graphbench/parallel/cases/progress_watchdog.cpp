#include "graphbench/parallel/cases/progress_watchdog.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace graphbench::parallel {

ProgressWatchdog::ProgressWatchdog(std::chrono::milliseconds timeout, std::string who, std::string waiting)
    : timeout_(timeout), who_(std::move(who)), waiting_(std::move(waiting)) {
  heartbeat();
  thread_ = std::thread([this] { watch(); });
}

ProgressWatchdog::~ProgressWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void ProgressWatchdog::watch() {
  const auto period = std::min<std::chrono::milliseconds>(timeout_ / 10 + std::chrono::milliseconds(1),
                                                          std::chrono::milliseconds(1000));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stop_; })) {
    const double idle_s = static_cast<double>(nanoseconds_since_heartbeat()) * 1e-9;
    if (idle_s * 1000.0 < static_cast<double>(timeout_.count())) continue;
    const std::string message = fmt::format(
        "graphbench: error: {}: no progress for {:.0f} s (--dist-timeout): {}; ending this rank\n", who_, idle_s,
        waiting_);
    std::fputs(message.c_str(), stderr);
    std::fflush(stderr);
    std::fflush(stdout);
    std::_Exit(kExitFailure);
  }
}

}  // namespace graphbench::parallel
