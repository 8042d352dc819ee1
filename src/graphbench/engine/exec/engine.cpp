#include "graphbench/engine/exec/engine.h"

namespace graphbench {

const CompiledProgram& Engine::compile_cached(const std::shared_ptr<const Program>& program) {
  const CompiledProgram& compiled = cache_.compile_cached(program);
  counters_.compiles = cache_.compiles();
  counters_.compile_cache_hits = cache_.hits();
  return compiled;
}

}  // namespace graphbench
