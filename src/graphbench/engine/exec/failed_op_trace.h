// Names the op an error came from: remembers on its thread the ATen ops an exception unwound through
// (a sync refused in a capture names none: this adds "aten::_local_scalar_dense, inside aten::item").
#pragma once

#include "graphbench/core/base/non_copyable.h"

#include <ATen/record_function.h>

#include <string>
#include <vector>

namespace graphbench {

class FailedOpTrace : NonCopyable {
 public:
  FailedOpTrace();
  ~FailedOpTrace();

  // The ops the last exception unwound through, innermost first (empty when none did).
  const std::vector<std::string>& unwound_ops() const { return unwound_; }

  // "in aten::_local_scalar_dense, inside aten::item", or "" when no op was unwound.
  std::string describe() const;

 private:
  static std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn);
  static void on_end(const at::RecordFunction& fn, at::ObserverContext* context);

  at::CallbackHandle handle_ = 0;
  FailedOpTrace* outer_ = nullptr;  // a trace alive on this thread before this one
  std::vector<std::string> unwound_;
};

}  // namespace graphbench
