// Constructors of the three executors (one file each); make_executor picks among them.
#pragma once

#include "graphbench/engine/exec/executor.h"

namespace graphbench {

std::unique_ptr<Executor> make_eager_executor(Engine& engine);
std::unique_ptr<Executor> make_static_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options);
std::unique_ptr<Executor> make_graph_executor(Engine& engine, const Policy& policy, const ExecutorOptions& options);

}  // namespace graphbench
