// One executor's bindings (and graphs) by GraphKey; a feed matching the last entry skips the key.
#pragma once

#include "graphbench/engine/exec/graph_key.h"
#include "graphbench/engine/exec/slot_binding.h"

#include <memory>
#include <unordered_map>

namespace graphbench {

template <typename Entry>  // Entry has a member `std::unique_ptr<SlotBinding> binding`
class BindingCache {
 public:
  // The entry for running `compiled` on `feed`, or nullptr; then `key` holds the key to insert.
  Entry* find(const CompiledProgram& compiled, const Policy& policy, const Feed& feed, GraphKey& key) {
    if (last_ != nullptr && &last_->binding->compiled() == &compiled && last_->binding->matches(feed)) {
      return last_;
    }
    key = make_graph_key(compiled, policy, feed);
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    last_ = it->second.get();
    return last_;
  }

  Entry& insert(GraphKey key, std::unique_ptr<Entry> entry) {
    last_ = entry.get();
    entries_.emplace(std::move(key), std::move(entry));
    return *last_;
  }

 private:
  std::unordered_map<GraphKey, std::unique_ptr<Entry>, GraphKeyHash> entries_;
  Entry* last_ = nullptr;
};

}  // namespace graphbench
