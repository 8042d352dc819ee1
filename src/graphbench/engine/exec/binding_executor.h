// What the static and graph executors share: an entry per program and feed signature, set up on first use.
#pragma once

#include "graphbench/engine/exec/binding_cache.h"
#include "graphbench/engine/exec/executor.h"

#include <memory>
#include <optional>

namespace graphbench {

template <typename Entry>  // Entry has a member `std::unique_ptr<SlotBinding> binding`
class BindingExecutor : public Executor {
 public:
  BindingExecutor(Engine& engine, const Policy& policy, const ExecutorOptions& options)
      : engine_(engine), policy_(policy), options_(options) {}

  std::optional<Feed> bound_inputs(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    GraphKey key;
    Entry* entry = cache_.find(engine_.compile_cached(program), policy_, feed, key);
    if (entry == nullptr) return std::nullopt;
    return entry->binding->fixed_inputs();
  }

  void prepare(const std::shared_ptr<const Program>& program, const Feed& feed) override { entry_for(program, feed); }

 protected:
  // A new entry, its binding made: set it up for its steps (key: for messages).
  virtual void set_up(Entry& entry, const GraphKey& key) = 0;

  // The entry of this program and feed signature, made and set up now if there is none.
  Entry& entry_for(const std::shared_ptr<const Program>& program, const Feed& feed) {
    const CompiledProgram& compiled = engine_.compile_cached(program);
    GraphKey key;
    if (Entry* entry = cache_.find(compiled, policy_, feed, key)) return *entry;
    auto entry = std::make_unique<Entry>();
    entry->binding = std::make_unique<SlotBinding>(compiled, policy_, engine_.store(), feed);
    ++engine_.counters().bindings;
    set_up(*entry, key);
    return cache_.insert(std::move(key), std::move(entry));
  }

  // A step's start: the entry of this program and feed, its fixed pointers checked, `feed` copied in.
  Entry& fed_entry(const std::shared_ptr<const Program>& program, const Feed& feed) {
    Entry& entry = entry_for(program, feed);
    entry.binding->check_fixed_pointers();
    entry.binding->copy_feed(feed, engine_.counters());
    return entry;
  }

  Engine& engine_;
  Policy policy_;
  ExecutorOptions options_;

 private:
  BindingCache<Entry> cache_;
};

}  // namespace graphbench
