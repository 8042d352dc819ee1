// Reads a device scalar without stalling the device: start() queues its copy, poll() says if it landed.
#pragma once

#include "graphbench/core/base/non_copyable.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <memory>
#include <optional>

namespace graphbench::bench {

class AsyncReadback : NonCopyable {
 public:
  AsyncReadback();
  ~AsyncReadback();

  // True while a copy is in flight (start() then waits for poll() to see it land).
  bool busy() const { return busy_; }
  // Queues the copy of the 0-dim `scalar` on the current stream; `tag` comes back with its value.
  void start(const at::Tensor& scalar, std::int64_t tag);

  struct Landed {
    double value = 0.0;
    std::int64_t tag = 0;
  };
  // The copy in flight, if it has landed (then the reader is free again); never waits.
  std::optional<Landed> poll();

 private:
  struct Event;
  at::Tensor host_;
  std::unique_ptr<Event> event_;
  std::int64_t tag_ = 0;
  bool busy_ = false;
};

}  // namespace graphbench::bench
