#include "graphbench/engine/exec/graph_key.h"

#include <fmt/format.h>

#include <functional>

namespace graphbench {

std::string GraphKey::to_string() const {
  std::string fed;
  for (const auto& f : feed_signature) {
    fed += fmt::format("{}{}={}", fed.empty() ? "" : ", ", f.name, graphbench::to_string(f.spec));
  }
  return fmt::format("(mode={}, plan={}, static_roles={}, copy_roles={}, feed=[{}])",
                     graphbench::to_string(mode), plan_key, graphbench::to_string(static_roles),
                     graphbench::to_string(copy_roles), fed);
}

std::size_t GraphKeyHash::operator()(const GraphKey& key) const {
  std::size_t h = std::hash<std::string>{}(key.plan_key);
  auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  mix(static_cast<std::size_t>(key.mode));
  mix(key.static_roles.bits());
  mix(static_cast<std::size_t>(key.copy_roles.bits()) << 8);
  for (const auto& f : key.feed_signature) {
    mix(std::hash<std::string>{}(f.name));
    for (auto d : f.spec.shape) mix(static_cast<std::size_t>(d));
    mix(static_cast<std::size_t>(f.spec.dtype));
  }
  return h;
}

GraphKey make_graph_key(const CompiledProgram& compiled, const Policy& policy, const Feed& feed) {
  GraphKey key;
  key.mode = policy.mode;
  key.plan_key = compiled.plan_key();
  key.static_roles = policy.static_roles;
  key.copy_roles = policy.copy_roles;
  const Program& program = compiled.program();
  for (ValueId id : program.external_vids()) {
    const ValueInfo& v = program.value(id);
    if (!policy.copy_roles.contains(*v.role)) continue;
    auto it = feed.find(v.name);
    // An undefined fed tensor keeps the declared spec here; binding then rejects it by name.
    const bool fed = it != feed.end() && it->second.defined();
    key.feed_signature.push_back(FedValueSignature{v.name, fed ? spec_of(it->second) : v.spec});
  }
  return key;
}

}  // namespace graphbench
