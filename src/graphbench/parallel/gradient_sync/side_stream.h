// A stream beside the current one, for work alongside it (a bucket's all-reduce during backward). On
// CUDA a high-priority pool stream (never an executor's capture or warm-up stream); fork() orders it
// after the current stream and makes it current while the scope lives, join() makes the current
// stream wait for it: event records and waits, so a capture takes the same fork and join with no
// host sync. On the CPU both do nothing.
#pragma once

#include "graphbench/core/base/non_copyable.h"

#include <ATen/ATen.h>

#include <memory>

namespace graphbench::parallel {

// Whether the current stream of `device` is being captured into a CUDA graph (never on the CPU).
bool is_capturing(at::Device device);

class SideStream : NonCopyable {
 public:
  explicit SideStream(at::Device device);
  ~SideStream();

  // While it lives, the side stream is current on this thread, after what was queued at fork().
  class Scope {
   public:
    ~Scope();
    Scope(Scope&&) noexcept;
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope& operator=(Scope&&) = delete;

   private:
    friend class SideStream;
    struct Guard;
    explicit Scope(std::unique_ptr<Guard> guard);
    std::unique_ptr<Guard> guard_;
  };

  Scope fork();
  // The current stream waits for everything queued on the side stream so far.
  void join();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace graphbench::parallel
