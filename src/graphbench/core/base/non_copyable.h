// A base for the classes that own what cannot be shared (a captured graph, a CUDA stream, a
// communicator, an open file): copying one is a compile error. Inherit privately.
#pragma once

namespace graphbench {

class NonCopyable {
 protected:
  NonCopyable() = default;
  ~NonCopyable() = default;

 public:
  NonCopyable(const NonCopyable&) = delete;
  NonCopyable& operator=(const NonCopyable&) = delete;
};

}  // namespace graphbench
