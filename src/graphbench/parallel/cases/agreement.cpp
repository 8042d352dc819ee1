#include "graphbench/parallel/cases/agreement.h"

#include <fmt/format.h>

namespace graphbench::parallel {

std::string agree_on_errors(Communicator& communicator, const std::string& local_error) {
  if (!communicator.any_rank(!local_error.empty())) return "";
  const auto errors = communicator.all_gather_strings(local_error);
  std::string joined;
  for (std::size_t r = 0; r < errors.size(); ++r) {
    if (errors[r].empty()) continue;
    joined += fmt::format("{}rank {}: {}", joined.empty() ? "" : "; ", r, errors[r]);
  }
  return joined;
}

SamplingAgreement sampling_agreement(Communicator& communicator) {
  SamplingAgreement agreement;
  agreement.max_over_ranks = [&communicator](const std::vector<std::int64_t>& values) {
    return communicator.all_reduce_ints(values, IntReduce::kMax);
  };
  return agreement;
}

}  // namespace graphbench::parallel
