#include "graphbench/exec/policy.h"

#include "graphbench/core/errors.h"

namespace graphbench {

const char* to_string(Mode mode) { return mode == Mode::kTrain ? "train" : "inference"; }

Mode mode_from_name(const std::string& name) {
  if (name == "inference") return Mode::kInference;
  if (name == "train") return Mode::kTrain;
  throw InputError("unknown mode \"" + name + "\" (expected inference or train)");
}

}  // namespace graphbench
