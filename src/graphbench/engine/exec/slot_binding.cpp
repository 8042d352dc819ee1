#include "graphbench/engine/exec/slot_binding.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/buffer_sharing.h"
#include "graphbench/engine/exec/externals.h"
#include "graphbench/engine/exec/run_ops.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace graphbench {

SlotBinding::SlotBinding(const CompiledProgram& compiled, const Policy& policy, ModelStore& store,
                         const Feed& feed)
    : compiled_(compiled) {
  const Program& program = compiled.program();
  // The role check comes first: nothing is allocated or captured for a policy that cannot work.
  for (ValueId id : program.external_vids()) {
    const ValueInfo& v = program.value(id);
    if (!policy.static_roles.contains(*v.role)) {
      throw EngineError(fmt::format(
          "program {}: external \"{}\" has role {}, which is not in static_roles {} of the {} policy; "
          "a captured graph needs a fixed buffer for every external",
          program.name(), v.name, to_string(*v.role), to_string(policy.static_roles), to_string(policy.mode)));
    }
  }
  check_feed_names(program, feed);

  // Slot specs for this feed's shapes (the short last batch differs from the declared one).
  std::map<ValueId, TensorSpec> fed_specs;
  for (ValueId id : program.external_vids()) {
    const ValueInfo& v = program.value(id);
    if (*v.role == Role::kInput) fed_specs[id] = spec_of(fed_input(program, v, feed));
  }
  slot_specs_ = compiled.specs_for(fed_specs);

  slots_.assign(compiled.num_slots(), at::Tensor());
  at::NoGradGuard no_grad;
  for (ValueId id : program.external_vids()) {
    const ValueInfo& v = program.value(id);
    BoundExternal bound;
    bound.value = &v;
    bound.slot = compiled.slot_of(id);
    bound.copied = policy.copy_roles.contains(*v.role);
    bound.updated = compiled.slot_values()[static_cast<std::size_t>(bound.slot)].size() > 1;
    at::Tensor& slot = slots_[static_cast<std::size_t>(bound.slot)];
    if (*v.role == Role::kInput) {
      slot = allocate(slot_specs_[static_cast<std::size_t>(bound.slot)]);
      slot.copy_(fed_input(program, v, feed));
    } else {
      at::Tensor& buffer = store_buffer(program, v, store, feed);
      bound.store_entry = &buffer;
      slot = buffer;
    }
    bound.data = slot.data_ptr();
    externals_.push_back(bound);
  }
  for (const BoundExternal& bound : externals_) by_name_.push_back(&bound);
  std::sort(by_name_.begin(), by_name_.end(),
            [](const BoundExternal* a, const BoundExternal* b) { return a->value->name < b->value->name; });
  allocate_internal_buffers();
}

void SlotBinding::allocate_internal_buffers() { allocate_internal_buffers_of(0, compiled_.ops().size()); }

void SlotBinding::allocate_internal_buffers_of(std::size_t first, std::size_t end) {
  // Values computed into fixed slots (all op outputs); a dead value's buffer serves a later one
  // (buffer_sharing.h), within the range only.
  const std::vector<int> owner = share_buffers(compiled_, slot_specs_);
  std::vector<bool> in_range(slots_.size(), false);
  for (std::size_t i = first; i < end; ++i) {
    for (int s : compiled_.ops()[i].output_slots) in_range[static_cast<std::size_t>(s)] = true;
  }
  auto own_buffer = [&](std::size_t s) { return owner[s] == static_cast<int>(s) || !in_range[static_cast<std::size_t>(owner[s])]; };
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    if (in_range[s] && compiled_.preallocated()[s] && own_buffer(s)) slots_[s] = allocate(slot_specs_[s]);
  }
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    if (in_range[s] && compiled_.preallocated()[s] && !own_buffer(s)) slots_[s] = slots_[static_cast<std::size_t>(owner[s])];
  }
}

void SlotBinding::copy_feed(const Feed& feed, Counters& counters) {
  auto fed = feed.begin();
  for (const BoundExternal* bound : by_name_) {
    const std::string& name = bound->value->name;
    // A fed name ordered before this external's is not an external of the program.
    if (fed != feed.end() && fed->first < name) check_feed_names(compiled_.program(), feed);  // throws
    if (fed == feed.end() || fed->first != name) {
      // Every input copied from the feed must be in it, as at binding time and in the eager
      // executor: a feed that lacks one would otherwise silently rerun on the last step's values.
      if (bound->copied && *bound->value->role == Role::kInput) fed_input(compiled_.program(), *bound->value, feed);
      continue;
    }
    const at::Tensor& tensor = fed->second;
    ++fed;
    if (!tensor.defined()) check_feed_names(compiled_.program(), feed);  // throws
    if (!bound->copied) {
      ++counters.feed_values_ignored;
      continue;
    }
    at::Tensor& slot = slots_[static_cast<std::size_t>(bound->slot)];
    if (tensor.data_ptr() == slot.data_ptr()) {
      ++counters.feed_copies_skipped;
      continue;
    }
    slot.copy_(tensor, /*non_blocking=*/true);
    ++counters.feed_copies;
  }
  if (fed != feed.end()) check_feed_names(compiled_.program(), feed);  // throws
}

Feed SlotBinding::fixed_inputs() const {
  Feed inputs;
  for (const BoundExternal& bound : externals_) {
    if (bound.copied) inputs.emplace(bound.value->name, slots_[static_cast<std::size_t>(bound.slot)]);
  }
  return inputs;
}

bool SlotBinding::matches(const Feed& feed) const {
  for (const BoundExternal& bound : externals_) {
    if (!bound.copied) continue;
    auto it = feed.find(bound.value->name);
    if (it == feed.end()) continue;
    const at::Tensor& t = it->second;
    if (!t.defined()) return false;
    const TensorSpec& spec = slot_specs_[static_cast<std::size_t>(bound.slot)];
    if (t.scalar_type() != spec.dtype || t.device() != spec.device || t.sizes() != at::IntArrayRef(spec.shape)) {
      return false;
    }
  }
  return true;
}

void SlotBinding::run() { run_lowered_ops(compiled_, slots_); }

void SlotBinding::run_range(std::size_t first, std::size_t end, std::size_t* running) {
  run_lowered_op_range(compiled_, slots_, first, end, running);
}

void SlotBinding::end_step() { release_autograd(compiled_, slots_); }

void SlotBinding::outputs_into(std::vector<at::Tensor>& out) const { read_outputs_into(compiled_, slots_, out); }

void SlotBinding::check_fixed_pointers() const {
  for (const BoundExternal& bound : externals_) {
    const at::Tensor& slot = slots_[static_cast<std::size_t>(bound.slot)];
    const bool slot_moved = !slot.defined() || slot.data_ptr() != bound.data;
    const bool store_moved = bound.store_entry != nullptr &&
                             (!bound.store_entry->defined() || bound.store_entry->data_ptr() != bound.data);
    if (slot_moved || store_moved) {
      throw EngineError(fmt::format(
          "program {}: {} \"{}\" no longer has the buffer it was bound to{}; runs of this binding "
          "(and a graph captured on it) would use stale memory",
          compiled_.program().name(), to_string(*bound.value->role), bound.value->name,
          store_moved ? " (the model store holds a different tensor now)" : ""));
    }
  }
}

std::vector<at::Tensor> SlotBinding::snapshot_updated_state() const {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> snapshot;
  for (const BoundExternal& bound : externals_) {
    if (bound.updated) snapshot.push_back(slots_[static_cast<std::size_t>(bound.slot)].detach().clone());
  }
  return snapshot;
}

void SlotBinding::restore_updated_state(const std::vector<at::Tensor>& snapshot) {
  at::NoGradGuard no_grad;
  std::size_t i = 0;
  for (const BoundExternal& bound : externals_) {
    if (bound.updated) slots_[static_cast<std::size_t>(bound.slot)].copy_(snapshot.at(i++));
  }
}

}  // namespace graphbench
