// compile_cached: the one way executors get a CompiledProgram, by program identity. The binding cache
// recognises a binding by its CompiledProgram's address: a new one per run would capture every step.
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
