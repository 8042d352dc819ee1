// A stream beside the current one, for work that may run alongside it: the gradient all-reduce of
// a bucket while the backward pass goes on. On CUDA it is a high-priority stream of LibTorch's pool
// (never one of the executors' capture or warm-up streams, which come from the normal-priority
// pool); fork() makes it wait for everything queued on the current stream so far and makes it the
// current stream while the returned scope lives; join() makes the current stream wait for
// everything queued on it. Both are event records and waits: inside a CUDA graph capture the side
// stream joins the capture and the graph gets the same fork and join, with no host
// synchronisation. On the CPU there is no stream: fork() and join() do nothing and work runs
// where it is called.
#pragma once

#include <ATen/ATen.h>

#include <memory>

namespace graphbench::parallel {

// Whether the current stream of `device` is being captured into a CUDA graph (never on the CPU).
bool is_capturing(at::Device device);

class SideStream {
 public:
  explicit SideStream(at::Device device);
  ~SideStream();
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;

  // While it lives, the side stream is current (on the calling thread), ordered after what the
  // stream current at fork() had queued.
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
