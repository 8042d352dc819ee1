// Ranks agreeing on outcomes: after each phase every rank says how it went and all go on or all record
// the failure, so no rank waits in a collective another will never call.
#pragma once

#include "graphbench/parallel/communication/communicator.h"
#include "graphbench/core/sampling/sampler.h"

#include <string>

namespace graphbench::parallel {

// "" where no rank has an error, else the same "rank 1: ...; rank 3: ..." on every rank.
std::string agree_on_errors(Communicator& communicator, const std::string& local_error);

// The sampler's agreement over `communicator` (an all-reduce of the ranks' maxima).
SamplingAgreement sampling_agreement(Communicator& communicator);

}  // namespace graphbench::parallel
