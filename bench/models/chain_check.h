// Whether a chain of pieces computes what the whole model computes: the check that runs before a
// split model is timed (script_pieces.h runs the chain). Apart from the pieces' loading, so that its
// tests need no TorchScript headers.
#pragma once

#include <ATen/ATen.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace graphbench::bench {

// A chain of pieces run once: each piece's inputs (what the program's op is built at) and the
// model's outputs.
struct ChainRun {
  std::vector<std::vector<at::Tensor>> piece_inputs;
  std::vector<at::Tensor> outputs;
};

// "" when the chain's outputs equal the whole model's within the tolerance, else what differs.
// `reference` (optional): the whole model's outputs in float64, by which a chain of compiled pieces
// is judged where the tolerances alone fail (engine/runner/output_match.h, rule 2).
std::string chain_difference(const std::vector<at::Tensor>& chain, const std::vector<at::Tensor>& whole, double rtol,
                             double atol, const std::vector<at::Tensor>& reference = {});
// EngineError "the chain of N pieces differs from the whole <whole>: ..." where chain_difference
// finds a difference. `reference` (optional) makes the whole model's float64 outputs, called only
// where the tolerances alone fail; the chain is then judged by them. Returns "" when the
// tolerances held, else a note of how the chain passed (for the case's records).
std::string require_chain_equals_whole(const ChainRun& chain, std::size_t pieces, const std::vector<at::Tensor>& whole,
                                       double rtol, double atol, const std::string& whole_name,
                                       const std::function<std::vector<at::Tensor>()>& reference = {});

}  // namespace graphbench::bench
