// Ranks agreeing on outcomes. A rank that fails a phase of a case must not leave the others
// waiting in a collective it will never call: after each phase every rank says how it went, and
// either all go on or all record the failure.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/core/sampling/sampler.h"

#include <string>

namespace graphbench::parallel {

// "" when `local_error` is "" on every rank; otherwise the errors of the ranks that failed
// ("rank 1: ...; rank 3: ..."), the same text on every rank.
std::string agree_on_errors(Communicator& communicator, const std::string& local_error);

// The sampler's agreement over `communicator` (an all-reduce of the ranks' maxima).
SamplingAgreement sampling_agreement(Communicator& communicator);

}  // namespace graphbench::parallel
