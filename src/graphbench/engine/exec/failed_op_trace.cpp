#include "graphbench/engine/exec/failed_op_trace.h"

#include <fmt/format.h>

#include <exception>

namespace graphbench {

namespace {
thread_local FailedOpTrace* active_trace = nullptr;
}  // namespace

FailedOpTrace::FailedOpTrace() : outer_(active_trace) {
  active_trace = this;
  handle_ = at::addThreadLocalCallback(
      at::RecordFunctionCallback(&FailedOpTrace::on_start, &FailedOpTrace::on_end).scopes({at::RecordScope::FUNCTION}));
}

FailedOpTrace::~FailedOpTrace() {
  at::removeCallback(handle_);
  active_trace = outer_;
}

std::unique_ptr<at::ObserverContext> FailedOpTrace::on_start(const at::RecordFunction&) {
  // An op starting normally means the last unwinding (if any) was caught and work went on: what
  // it recorded no longer describes the error that may come.
  if (active_trace != nullptr && std::uncaught_exceptions() == 0) active_trace->unwound_.clear();
  return nullptr;
}

void FailedOpTrace::on_end(const at::RecordFunction& fn, at::ObserverContext*) {
  // An op ends while an exception is in flight: the exception came from it or from an op it called.
  if (active_trace != nullptr && std::uncaught_exceptions() > 0) active_trace->unwound_.emplace_back(fn.name());
}

std::string FailedOpTrace::describe() const {
  if (unwound_.empty()) return "";
  std::string text = "in " + unwound_.front();
  for (std::size_t i = 1; i < unwound_.size(); ++i) text += ", inside " + unwound_[i];
  return text;
}

}  // namespace graphbench
