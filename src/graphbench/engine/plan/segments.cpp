#include "graphbench/engine/plan/segments.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

namespace graphbench {

namespace {

// What a scope makes of one op before the training rule.
struct OpPlan {
  bool captured = false;
  bool must_run_eagerly = false;  // eager by the scope's meaning, not because the scope left it out
  int group = 0;                  // captured runs end where the group changes (layer scope: the layer)
};

std::string op_range(std::size_t first, std::size_t end) {
  return end - first == 1 ? fmt::format("op #{}", first) : fmt::format("ops #{}..#{}", first, end - 1);
}

std::vector<OpPlan> plan_by_scope(const std::vector<SplitOp>& ops, const CaptureScope& scope) {
  std::vector<OpPlan> plan(ops.size());
  std::optional<std::regex> modules;
  if (scope.kind == ScopeKind::kModules) modules.emplace(scope.modules_regex);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const OpTag& tag = ops[i].tag;
    OpPlan& p = plan[i];
    switch (scope.kind) {
      case ScopeKind::kFull: p.captured = true; break;
      case ScopeKind::kLayer:
        p.captured = tag.layer >= 0;
        p.group = tag.layer;
        break;
      case ScopeKind::kAttentionOut:
        p.captured = !tag.attention;
        p.must_run_eagerly = tag.attention;
        break;
      case ScopeKind::kModules: p.captured = !tag.module.empty() && std::regex_search(tag.module, *modules); break;
      case ScopeKind::kAuto:
        p.captured = tag.capturable;
        p.must_run_eagerly = !tag.capturable;
        break;
      case ScopeKind::kForwardBackward: p.captured = !tag.optimizer; break;
    }
  }
  return plan;
}

// Why a scope captures none of the ops: the tags the program lacks.
std::string nothing_captured_reason(const std::vector<SplitOp>& ops, const CaptureScope& scope) {
  switch (scope.kind) {
    case ScopeKind::kFull: return "the program has no ops";
    case ScopeKind::kLayer:
      return fmt::format("none of its {} ops belongs to a layer (OpTag::layer >= 0): tag the ops of each repeated "
                         "block with the block's index (Builder::set_tag)",
                         ops.size());
    case ScopeKind::kAttentionOut:
      return fmt::format("all of its {} ops are attention ops (OpTag::attention), so nothing lies between them",
                         ops.size());
    case ScopeKind::kModules: {
      std::set<std::string> names;
      for (const SplitOp& op : ops) {
        if (!op.tag.module.empty()) names.insert(op.tag.module);
      }
      if (names.empty()) {
        return "none of its ops names a module (OpTag::module): tag the ops of each module with its path "
               "(Builder::set_tag)";
      }
      return fmt::format("no op's module matches \"{}\" (its modules: {})", scope.modules_regex, fmt::join(names, ", "));
    }
    case ScopeKind::kAuto:
      return fmt::format("none of its {} ops is capturable (OpTag::capturable)", ops.size());
    case ScopeKind::kForwardBackward:
      return fmt::format("all of its {} ops are the optimizer's (OpTag::optimizer)", ops.size());
  }
  return "";
}

[[noreturn]] void throw_nothing_captured(const std::string& program, const CaptureScope& scope, const std::string& why) {
  throw InputError(fmt::format("capture scope \"{}\" captures nothing in program \"{}\": {}", scope.to_string(),
                               program, why));
}

// The training rule (segments.h): the ops autograd ties together are captured all or eager all.
void apply_training_rule(const std::vector<SplitOp>& ops, std::vector<OpPlan>& plan) {
  bool any_captured = false;
  bool any_eager = false;
  bool any_must = false;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i].tied_by_autograd) continue;
    any_captured = any_captured || plan[i].captured;
    any_eager = any_eager || !plan[i].captured;
    any_must = any_must || plan[i].must_run_eagerly;
  }
  if (!any_captured || !any_eager) return;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].tied_by_autograd) plan[i].captured = !any_must;
  }
}

// The layers (attention runs) on either side of a segment, for its name.
struct Neighbours {
  std::optional<int> before;
  std::optional<int> after;
};

std::string between(const char* what, const Neighbours& n) {
  if (n.before && n.after) return fmt::format("between {} {} and {}", what, *n.before, *n.after);
  if (n.after) return fmt::format("before {} {}", what, *n.after);
  if (n.before) return fmt::format("after {} {}", what, *n.before);
  return fmt::format("outside any {}", what);
}

void name_segments(const std::vector<SplitOp>& ops, const CaptureScope& scope, std::vector<Segment>& segments) {
  // Attention runs, numbered from 0 (attention-out's names).
  std::vector<int> attention_index(ops.size(), -1);
  int runs = -1;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i].tag.attention) continue;
    if (i == 0 || !ops[i - 1].tag.attention) ++runs;
    attention_index[i] = runs;
  }
  for (std::size_t s = 0; s < segments.size(); ++s) {
    Segment& seg = segments[s];
    const SplitOp& first = ops[seg.first_op];
    const char* const suffix = seg.captured ? "" : " (eager)";
    switch (scope.kind) {
      case ScopeKind::kFull: seg.name = "whole step"; break;
      case ScopeKind::kLayer: {
        if (first.tag.layer >= 0) {
          seg.name = fmt::format("layer {}{}", first.tag.layer, suffix);
          break;
        }
        Neighbours n;
        for (std::size_t i = seg.first_op; i-- > 0;) {
          if (ops[i].tag.layer >= 0) {
            n.before = ops[i].tag.layer;
            break;
          }
        }
        for (std::size_t i = seg.end_op; i < ops.size(); ++i) {
          if (ops[i].tag.layer >= 0) {
            n.after = ops[i].tag.layer;
            break;
          }
        }
        seg.name = between("layer", n) + suffix;
        break;
      }
      case ScopeKind::kAttentionOut: {
        if (first.tag.attention) {
          seg.name = fmt::format("attention {}{}", attention_index[seg.first_op], suffix);
          break;
        }
        Neighbours n;
        if (seg.first_op > 0 && attention_index[seg.first_op - 1] >= 0) n.before = attention_index[seg.first_op - 1];
        for (std::size_t i = seg.end_op; i < ops.size(); ++i) {
          if (attention_index[i] >= 0) {
            n.after = attention_index[i];
            break;
          }
        }
        if (!n.before) {
          for (std::size_t i = seg.first_op; i-- > 0;) {
            if (attention_index[i] >= 0) {
              n.before = attention_index[i];
              break;
            }
          }
        }
        seg.name = between("attention", n) + suffix;
        break;
      }
      case ScopeKind::kModules: {
        const std::string& last = ops[seg.end_op - 1].tag.module;
        if (!seg.captured || first.tag.module.empty()) {
          seg.name = op_range(seg.first_op, seg.end_op) + suffix;
        } else {
          seg.name = first.tag.module == last ? first.tag.module : fmt::format("{} .. {}", first.tag.module, last);
        }
        break;
      }
      case ScopeKind::kAuto: {
        if (seg.captured) {
          seg.name = op_range(seg.first_op, seg.end_op);
          break;
        }
        std::string reason = first.tag.uncapturable_reason;
        if (first.tag.capturable) reason = "tied by autograd to an op that cannot be captured";
        seg.name = fmt::format("{} (eager{}{})", op_range(seg.first_op, seg.end_op), reason.empty() ? "" : ": ", reason);
        break;
      }
      case ScopeKind::kForwardBackward:
        seg.name = first.tag.optimizer ? std::string("optimizer") + suffix
                                       : std::string(seg.captured ? "forward and backward" : "forward and backward (eager)");
        break;
    }
  }
}

}  // namespace

std::vector<SplitOp> split_ops(const Program& program) {
  // The ops autograd records: differentiable ops whose outputs require grad, up to the last
  // backward op; and the backward ops themselves.
  std::size_t last_backward = 0;
  bool has_backward = false;
  for (std::size_t i = 0; i < program.ops().size(); ++i) {
    if (!program.ops()[i].op->differentiates_inputs().empty()) {
      last_backward = i;
      has_backward = true;
    }
  }
  std::vector<SplitOp> ops;
  ops.reserve(program.ops().size());
  for (std::size_t i = 0; i < program.ops().size(); ++i) {
    const OpNode& node = program.ops()[i];
    SplitOp op;
    op.tag = node.tag;
    op.label = fmt::format("#{} {}", i, node.op->signature());
    if (has_backward && i <= last_backward) {
      if (!node.op->differentiates_inputs().empty()) {
        op.tied_by_autograd = true;
      } else if (node.op->differentiable()) {
        for (ValueId id : node.outputs) op.tied_by_autograd = op.tied_by_autograd || program.value(id).requires_grad;
      }
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

std::vector<Segment> split_into_segments(const std::vector<SplitOp>& ops, const CaptureScope& scope,
                                         const std::string& program_name) {
  if (ops.empty()) throw_nothing_captured(program_name, scope, "the program has no ops");
  std::vector<OpPlan> plan = plan_by_scope(ops, scope);
  auto captures_any = [&plan] {
    return std::any_of(plan.begin(), plan.end(), [](const OpPlan& p) { return p.captured; });
  };
  if (!captures_any()) throw_nothing_captured(program_name, scope, nothing_captured_reason(ops, scope));
  apply_training_rule(ops, plan);
  if (!captures_any()) {
    throw_nothing_captured(program_name, scope,
                           "the program trains, autograd ties its forward to the backward op (they are captured "
                           "all or run eagerly all), one of them must run eagerly, and the scope captures no other op");
  }

  std::vector<Segment> segments;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const bool starts_new = segments.empty() || segments.back().captured != plan[i].captured ||
                            (plan[i].captured && plan[i].group != plan[i - 1].group);
    if (starts_new) segments.push_back(Segment{i, i + 1, plan[i].captured, ""});
    else segments.back().end_op = i + 1;
  }
  name_segments(ops, scope, segments);
  return segments;
}

std::vector<Segment> split_into_segments(const Program& program, const CaptureScope& scope) {
  return split_into_segments(split_ops(program), scope, program.name());
}

int captured_count(const std::vector<Segment>& segments) {
  return static_cast<int>(std::count_if(segments.begin(), segments.end(), [](const Segment& s) { return s.captured; }));
}

}  // namespace graphbench
