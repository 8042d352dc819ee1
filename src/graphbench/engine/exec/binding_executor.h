// What the static and graph executors share: an entry (a binding, and graphs) per program and feed
// signature (GraphKey), set up on first use; a feed matching the last entry skips making the key.
#pragma once

#include "graphbench/engine/exec/executor.h"
#include "graphbench/engine/exec/graph_key.h"
#include "graphbench/engine/exec/slot_binding.h"

#include <memory>
#include <optional>
#include <unordered_map>

namespace graphbench {

template <typename Entry>  // Entry has a member `std::unique_ptr<SlotBinding> binding`
class BindingExecutor : public Executor {
 public:
  BindingExecutor(Engine& engine, const Policy& policy, const ExecutorOptions& options)
      : engine_(engine), policy_(policy), options_(options) {}

  std::optional<Feed> bound_inputs(const std::shared_ptr<const Program>& program, const Feed& feed) override {
    GraphKey key;
    Entry* entry = find_entry(engine_.compile_cached(program), feed, key);
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
    if (Entry* entry = find_entry(compiled, feed, key)) return *entry;
    auto entry = std::make_unique<Entry>();
    entry->binding = std::make_unique<SlotBinding>(compiled, policy_, engine_.store(), feed);
    ++engine_.counters().bindings;
    set_up(*entry, key);
    last_found_ = entry.get();
    entries_.emplace(std::move(key), std::move(entry));
    return *last_found_;
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
  // The entry for running `compiled` on `feed`, or nullptr; then `key` holds the key to insert.
  Entry* find_entry(const CompiledProgram& compiled, const Feed& feed, GraphKey& key) {
    const bool same_as_last = last_found_ != nullptr && &last_found_->binding->compiled() == &compiled;
    if (same_as_last && last_found_->binding->matches(feed)) return last_found_;
    key = make_graph_key(compiled, policy_, feed);
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    last_found_ = it->second.get();
    return last_found_;
  }

  std::unordered_map<GraphKey, std::unique_ptr<Entry>, GraphKeyHash> entries_;
  Entry* last_found_ = nullptr;
};

}  // namespace graphbench
