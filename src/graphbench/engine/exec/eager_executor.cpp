// The eager executor: what ordinary LibTorch code does, every internal value allocated afresh each step.
#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/exec/externals.h"
#include "graphbench/engine/exec/run_ops.h"

namespace graphbench {

namespace {

class EagerExecutor final : public Executor {
 public:
  explicit EagerExecutor(Engine& engine) : engine_(engine) {}

  ExecutorKind kind() const override { return ExecutorKind::kEager; }

  void step(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    const CompiledProgram& compiled = engine_.compile_cached(program);
    const Program& p = compiled.program();
    check_feed_names(p, feed);
    // Dropping last step's tensors here is what makes every step allocate afresh.
    slots_.assign(compiled.num_slots(), at::Tensor());
    for (ValueId id : p.external_vids()) {
      const ValueInfo& v = p.value(id);
      at::Tensor& slot = slots_[static_cast<std::size_t>(compiled.slot_of(id))];
      if (*v.role == Role::kInput) {
        slot = fed_input(p, v, feed);
      } else {
        slot = store_buffer(p, v, engine_.store(), feed);
      }
    }
    run_lowered_ops(compiled, slots_);
    ++engine_.counters().eager_runs;
    read_outputs_into(compiled, slots_, outputs_);
  }

  const std::vector<at::Tensor>& outputs() const override { return outputs_; }

 private:
  Engine& engine_;
  std::vector<at::Tensor> slots_;
  std::vector<at::Tensor> outputs_;
};

}  // namespace

std::unique_ptr<Executor> make_eager_executor(Engine& engine) { return std::make_unique<EagerExecutor>(engine); }

}  // namespace graphbench
