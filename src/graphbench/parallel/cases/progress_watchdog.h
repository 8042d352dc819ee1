// A bound on how long a rank waits for the others: a collective inside a replayed CUDA graph cannot
// time out, so when a peer dies or takes another path the survivors would wait forever. The watchdog
// ends this rank, saying why, when nothing made progress (heartbeat(), parallel/communication/heartbeat.h)
// for its timeout; the launcher then ends the others.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/parallel/communication/heartbeat.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace graphbench::parallel {

class ProgressWatchdog : NonCopyable {
 public:
  // `who` names this rank ("rank 1 of 2"), `waiting` what is likely waiting on what.
  ProgressWatchdog(std::chrono::milliseconds timeout, std::string who,
                   std::string waiting = "a collective is waiting for a rank that failed, died or took another path");
  // Stops watching (before long work of this rank alone, e.g. writing the results).
  ~ProgressWatchdog();

 private:
  void watch();

  std::chrono::milliseconds timeout_;
  std::string who_;
  std::string waiting_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace graphbench::parallel
