// One model's store, compile cache and counters; every executor compiles through it (one plan per program).
#pragma once

#include "graphbench/engine/exec/counters.h"
#include "graphbench/engine/exec/model_store.h"
#include "graphbench/engine/plan/compile_cache.h"

#include <memory>

namespace graphbench {

class Engine {
 public:
  explicit Engine(ModelStore& store) : store_(store) {}

  const CompiledProgram& compile_cached(const std::shared_ptr<const Program>& program);

  ModelStore& store() { return store_; }
  Counters& counters() { return counters_; }
  const Counters& counters() const { return counters_; }

 private:
  ModelStore& store_;
  CompileCache cache_;
  Counters counters_;
};

}  // namespace graphbench
