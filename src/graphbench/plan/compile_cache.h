// compile_cached: the one way executors get a CompiledProgram. Keyed by program identity, so the
// same program always yields the same plan object and plan key.
//
// Note [why the plan cache comes first]: the graph cache key contains the plan key. If every run
// compiled a new plan, every run would see a new key, recapture, and bind fresh state buffers:
// optimizer state would stop accumulating and training would look reset at every step.
#pragma once

#include "graphbench/plan/compiled_program.h"

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
