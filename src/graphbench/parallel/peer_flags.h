// The one kernel of the copy-engine all-reduce (peer_exchange.h): waiting for a flag that another
// GPU raises. A stream memory operation (cuStreamWaitValue32) would wait in the stream's hardware
// queue, which streams share: work of other streams queued behind it would wait too (the backward
// pass, or on a GPU shared by two ranks the very copy that raises the flag). A kernel of one thread
// waits on a multiprocessor instead and leaves the queues alone.
#pragma once

#ifdef GRAPHBENCH_WITH_CUDA
#include <cuda_runtime_api.h>

#include <cstdint>

namespace graphbench::parallel {

// On `stream`: waits until *flag (device memory of this GPU) is 1, then sets it back to 0.
// Returns the launch's status.
cudaError_t launch_take_flag(std::uint32_t* flag, cudaStream_t stream);

}  // namespace graphbench::parallel
#endif
