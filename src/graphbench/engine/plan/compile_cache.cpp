#include "graphbench/engine/plan/compile_cache.h"

namespace graphbench {

const CompiledProgram& CompileCache::compile_cached(const std::shared_ptr<const Program>& program) {
  auto it = cache_.find(program->id());
  if (it != cache_.end()) {
    ++hits_;
    return *it->second;
  }
  ++compiles_;
  auto compiled = compile(program);
  return *cache_.emplace(program->id(), std::move(compiled)).first->second;
}

}  // namespace graphbench
