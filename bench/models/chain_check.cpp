#include "models/chain_check.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/plan/tensor_spec.h"
#include "graphbench/engine/runner/output_match.h"

#include <fmt/format.h>

namespace graphbench::bench {

std::string chain_difference(const std::vector<at::Tensor>& chain, const std::vector<at::Tensor>& whole, double rtol,
                             double atol, const std::vector<at::Tensor>& reference) {
  if (chain.size() != whole.size()) {
    return fmt::format("the chain returns {} tensor(s), the whole model {}", chain.size(), whole.size());
  }
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (chain[i].sizes() != whole[i].sizes() || chain[i].scalar_type() != whole[i].scalar_type()) {
      return fmt::format("output {} is {} in the chain, {} in the whole model", i, to_string(spec_of(chain[i])),
                         to_string(spec_of(whole[i])));
    }
    // The one rule for two outputs of one computation (engine/runner/output_match.h).
    const bool has_reference = i < reference.size() && reference[i].sizes() == whole[i].sizes();
    const OutputMatch m = match_output(whole[i], chain[i], rtol, atol, has_reference ? reference[i] : at::Tensor());
    if (!m.ok()) {
      const std::string why = m.describe();
      return fmt::format("output {} differs by up to {:.3g} (rtol {}, atol {}){}", i, m.max_abs, rtol, atol,
                         why.empty() ? "" : ": " + why);
    }
  }
  return "";
}

std::string require_chain_equals_whole(const ChainRun& chain, std::size_t pieces, const std::vector<at::Tensor>& whole,
                                       double rtol, double atol, const std::string& whole_name,
                                       const std::function<std::vector<at::Tensor>()>& reference) {
  const std::string beyond_tolerances = chain_difference(chain.outputs, whole, rtol, atol);
  if (beyond_tolerances.empty()) return "";
  const std::string difference =
      reference ? chain_difference(chain.outputs, whole, rtol, atol, reference()) : beyond_tolerances;
  if (!difference.empty()) {
    throw EngineError(fmt::format("the chain of {} pieces differs from the whole {}: {}", pieces, whole_name, difference));
  }
  return fmt::format("the chain of {} pieces passed against the whole {} run in float64 (at most 3x its error + "
                     "atol/10), not by the tolerances: {}",
                     pieces, whole_name, beyond_tolerances);
}

}  // namespace graphbench::bench
