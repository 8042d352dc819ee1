// A feed: the tensors handed to one run, by external value name.
#pragma once

#include <ATen/ATen.h>

#include <map>
#include <string>

namespace graphbench {

using Feed = std::map<std::string, at::Tensor>;

}  // namespace graphbench
