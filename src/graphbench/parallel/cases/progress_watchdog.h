// A bound on how long a rank may wait for the others. Rendezvous, store reads and Gloo collectives
// time out by themselves, but a collective inside a replayed CUDA graph cannot: when a peer dies or
// takes another path (a capture that failed on one rank only), the survivors would wait forever.
// The watchdog ends this rank, with a message, when nothing has made progress for its timeout;
// the launcher (or torchrun) then ends the others.
//
// Progress is marked by heartbeat() (parallel/communication/heartbeat.h): every collective and store call of
// a Communicator that returns, and every training step of a data-parallel case.
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/parallel/communication/heartbeat.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace graphbench::parallel {

class ProgressWatchdog : NonCopyable {
 public:
  // Starts watching; `who` names this rank in the message ("rank 1 of 2"), `waiting` says what is
  // likely waiting on what.
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
