// Where an op sits in its model: what a capture scope splits a program by (Builder::set_tag).
#pragma once

#include <string>

namespace graphbench {

struct OpTag {
  // The dotted path of the module the op belongs to ("layers.3.self_attn", "conv1"); "" when none.
  std::string module;
  // The repeated block it belongs to (a transformer layer, a ResNet stage), from 0; -1 outside any.
  int layer = -1;
  // An attention op: run eagerly under the attention-out scope.
  bool attention = false;
  // Part of the optimizer's update: run eagerly under the fwd-bwd scope.
  bool optimizer = false;
  // Known not to capture (a host sync, a data-dependent shape): eager under auto, saying why.
  bool capturable = true;
  std::string uncapturable_reason;

  bool operator==(const OpTag& other) const {
    return module == other.module && layer == other.layer && attention == other.attention &&
           optimizer == other.optimizer && capturable == other.capturable &&
           uncapturable_reason == other.uncapturable_reason;
  }
  bool operator!=(const OpTag& other) const { return !(*this == other); }
};

}  // namespace graphbench
