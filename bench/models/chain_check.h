// Whether a chain of pieces computes what the whole model does (apart, so tests need no TorchScript).
#pragma once

#include <ATen/ATen.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace graphbench::bench {

// A chain of pieces run once: each piece's inputs (its op is built at them) and the model's outputs.
struct ChainRun {
  std::vector<std::vector<at::Tensor>> piece_inputs;
  std::vector<at::Tensor> outputs;
};

// "" where the chain equals the whole within the tolerance (or by float64 `reference`, output_match.h
// rule 2), else what differs.
std::string chain_difference(const std::vector<at::Tensor>& chain, const std::vector<at::Tensor>& whole, double rtol,
                             double atol, const std::vector<at::Tensor>& reference = {});
// EngineError "the chain of N pieces differs from the whole <whole>: ..." where it differs;
// `reference` is called only where the tolerances fail. "" or how the chain passed.
std::string require_chain_equals_whole(const ChainRun& chain, std::size_t pieces, const std::vector<at::Tensor>& whole,
                                       double rtol, double atol, const std::string& whole_name,
                                       const std::function<std::vector<at::Tensor>()>& reference = {});

}  // namespace graphbench::bench
