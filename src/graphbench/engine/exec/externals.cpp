#include "graphbench/engine/exec/externals.h"

#include "graphbench/core/base/errors.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace graphbench {

namespace {
std::string external_names(const Program& program) {
  std::vector<std::string> names;
  for (ValueId id : program.external_vids()) names.push_back(program.value(id).name);
  return fmt::format("{}", fmt::join(names, ", "));
}
}  // namespace

void check_feed_names(const Program& program, const Feed& feed) {
  for (const auto& [name, tensor] : feed) {
    if (program.find_external(name) == nullptr) {
      throw EngineError(fmt::format("program {}: the feed names \"{}\", which is not one of its externals ({})",
                                    program.name(), name, external_names(program)));
    }
    if (!tensor.defined()) {
      throw EngineError(fmt::format("program {}: the feed's \"{}\" is an undefined tensor", program.name(), name));
    }
  }
}

const at::Tensor& fed_input(const Program& program, const ValueInfo& value, const Feed& feed) {
  auto it = feed.find(value.name);
  if (it == feed.end()) {
    throw EngineError(fmt::format("program {}: the feed lacks input \"{}\" ({})", program.name(),
                                  value.name, to_string(value.spec)));
  }
  const at::Tensor& t = it->second;
  if (t.scalar_type() != value.spec.dtype || t.device() != value.spec.device ||
      t.dim() != static_cast<std::int64_t>(value.spec.shape.size())) {
    throw EngineError(fmt::format("program {}: input \"{}\" was fed {}, expected {}", program.name(),
                                  value.name, to_string(spec_of(t)), to_string(value.spec)));
  }
  return t;
}

at::Tensor& store_buffer(const Program& program, const ValueInfo& value, ModelStore& store, const Feed& feed) {
  if (!store.contains(value.name)) {
    auto it = feed.find(value.name);
    at::NoGradGuard no_grad;
    if (it != feed.end()) {
      store.set(value.name, it->second.detach().to(value.spec.device, value.spec.dtype).clone());
    } else if (value.initial_fill) {
      store.set(value.name, at::full(value.spec.shape, *value.initial_fill, value.spec.options()));
    } else {
      throw EngineError(fmt::format(
          "program {}: {} \"{}\" has no value: it is neither in the model store nor in the feed",
          program.name(), to_string(*value.role), value.name));
    }
  }
  at::Tensor& buffer = store.at(value.name);
  if (spec_of(buffer) != value.spec) {
    throw EngineError(fmt::format("program {}: {} \"{}\" is {} in the model store, but the program declares {}",
                                  program.name(), to_string(*value.role), value.name,
                                  to_string(spec_of(buffer)), to_string(value.spec)));
  }
  if (value.requires_grad && !buffer.requires_grad()) buffer.requires_grad_(true);
  return buffer;
}

}  // namespace graphbench
