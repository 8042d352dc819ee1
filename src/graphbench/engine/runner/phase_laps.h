// Where a case's time went: each lap() names and times the phase that just ended (which one overran).
#pragma once

#include "graphbench/core/report/progress.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <string>
#include <vector>

namespace graphbench {

class PhaseLaps {
 public:
  explicit PhaseLaps(std::chrono::steady_clock::time_point start) : last_(start) {}

  // The phase's seconds.
  double lap(const char* phase) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    laps_.push_back(fmt::format("{} {}", phase, format_duration(seconds)));
    last_ = now;
    return seconds;
  }
  // "probe 12 ms, validation 1.1 s, ..."
  std::string text() const { return fmt::format("{}", fmt::join(laps_, ", ")); }

 private:
  std::chrono::steady_clock::time_point last_;
  std::vector<std::string> laps_;
};

}  // namespace graphbench
