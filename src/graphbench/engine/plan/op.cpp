#include "graphbench/engine/plan/op.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

namespace graphbench {

std::vector<at::Tensor> OpIO::in_list(std::size_t first, std::size_t count) const {
  std::vector<at::Tensor> list;
  list.reserve(count);
  for (std::size_t i = first; i < first + count; ++i) list.push_back(in(i));
  return list;
}

void throw_op_error(const Op& op, const std::string& message) {
  throw EngineError(fmt::format("{}: {}", op.signature(), message));
}

void expect_input_count(const Op& op, const std::vector<TensorSpec>& inputs, std::size_t expected) {
  if (inputs.size() != expected) {
    throw_op_error(op, fmt::format("expected {} inputs, got {}", expected, inputs.size()));
  }
}

}  // namespace graphbench
