// compile_cached: the one way executors get a CompiledProgram. Keyed by program identity, so the
// same program always yields the same plan object and plan key.
//
// Note [why the plan cache comes first]: slot bindings (and the graphs captured on them) hold a
// reference to their CompiledProgram, and the binding cache's fast path recognises a binding by
// that object's address. If every run compiled a new CompiledProgram, no run would find its
// binding: every step would bind and capture again. One program, one CompiledProgram, for the
// engine's lifetime.
#pragma once

#include "graphbench/engine/plan/compiled_program.h"

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace graphbench {

class CompileCache {
 public:
  const CompiledProgram& compile_cached(const std::shared_ptr<const Program>& program);
  std::int64_t compiles() const { return compiles_; }
  std::int64_t hits() const { return hits_; }
  std::size_t size() const { return cache_.size(); }

 private:
  std::unordered_map<std::uint64_t, std::shared_ptr<const CompiledProgram>> cache_;
  std::int64_t compiles_ = 0;
  std::int64_t hits_ = 0;
};

}  // namespace graphbench
