#include "graphbench/engine/timing/step_timer.h"

#include "graphbench/engine/timing/device_memory.h"

#include <algorithm>
#include <chrono>

#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace graphbench {

namespace {
using Clock = std::chrono::steady_clock;
double micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }
}  // namespace

void synchronize_device(bool cuda) {
#ifdef GRAPHBENCH_WITH_CUDA
  if (cuda) c10::cuda::device_synchronize();
#else
  (void)cuda;
#endif
}

struct StepTimer::Impl {
  bool cuda = false;
  bool cold = false;  // CUDA only
  Clock::time_point host_start;
  MemoryProbe memory{false};
#ifdef GRAPHBENCH_WITH_CUDA
  std::unique_ptr<at::cuda::CUDAEvent> begin;
  std::unique_ptr<at::cuda::CUDAEvent> end;
  // Cold L2: a buffer twice the L2's size, written before each step (as nvbench's cold measurements
  // do), and one pair of events per step of the block, reused from block to block.
  at::Tensor l2_buffer;
  std::vector<std::unique_ptr<at::cuda::CUDAEvent>> step_begins;
  std::vector<std::unique_ptr<at::cuda::CUDAEvent>> step_ends;
  std::size_t steps_in_block = 0;
  Clock::duration issue{};
  Clock::time_point step_start;
#endif
};

StepTimer::StepTimer(bool cuda, L2Cache l2) : impl_(std::make_unique<Impl>()) {
  impl_->cuda = cuda;
  impl_->memory = MemoryProbe(cuda);
#ifdef GRAPHBENCH_WITH_CUDA
  if (cuda) {
    impl_->begin = std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault);
    impl_->end = std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault);
    if (l2 == L2Cache::kCold) {
      impl_->cold = true;
      const std::int64_t l2_bytes = at::cuda::getCurrentDeviceProperties()->l2CacheSize;
      const std::int64_t bytes = std::max<std::int64_t>(2 * l2_bytes, std::int64_t{1} << 20);
      impl_->l2_buffer = at::empty({bytes}, at::TensorOptions().dtype(at::kByte).device(at::kCUDA));
    }
  }
#else
  (void)l2;
#endif
}

StepTimer::~StepTimer() = default;

double StepTimer::now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

bool StepTimer::times_each_step() const { return impl_->cold; }

void StepTimer::start() {
  synchronize_device(impl_->cuda);
  impl_->memory.begin();
#ifdef GRAPHBENCH_WITH_CUDA
  if (impl_->cold) {
    impl_->steps_in_block = 0;
    impl_->issue = Clock::duration::zero();
  } else if (impl_->cuda) {
    impl_->begin->record(at::cuda::getCurrentCUDAStream());
  }
#endif
  impl_->host_start = Clock::now();
}

void StepTimer::before_step() {
#ifdef GRAPHBENCH_WITH_CUDA
  if (!impl_->cold) return;
  Impl& m = *impl_;
  if (m.step_begins.size() <= m.steps_in_block) {
    m.step_begins.push_back(std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault));
    m.step_ends.push_back(std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault));
  }
  // The flush waited for: the step starts on an idle GPU (else the host would issue it while the flush
  // still runs, and its launch gaps would hide behind it).
  m.l2_buffer.zero_();
  at::cuda::getCurrentCUDAStream().synchronize();
  m.step_begins[m.steps_in_block]->record(at::cuda::getCurrentCUDAStream());
  m.step_start = Clock::now();
#endif
}

void StepTimer::after_step() {
#ifdef GRAPHBENCH_WITH_CUDA
  if (!impl_->cold) return;
  Impl& m = *impl_;
  m.issue += Clock::now() - m.step_start;
  m.step_ends[m.steps_in_block]->record(at::cuda::getCurrentCUDAStream());
  ++m.steps_in_block;
#endif
}

StepTime StepTimer::stop(std::int64_t steps) {
  StepTime t;
  const auto issued = Clock::now();  // the last step has returned: the host's part is done
  const double n = static_cast<double>(steps);
#ifdef GRAPHBENCH_WITH_CUDA
  if (impl_->cold) {
    Impl& m = *impl_;
    double device_ms = 0.0;
    if (m.steps_in_block > 0) m.step_ends[m.steps_in_block - 1]->synchronize();
    for (std::size_t i = 0; i < m.steps_in_block; ++i) device_ms += m.step_begins[i]->elapsed_time(*m.step_ends[i]);
    t.host_us = micros(Clock::now() - m.host_start) / n;
    t.device_us = device_ms * 1000.0 / n;
    t.issue_us = micros(m.issue) / n;
    t.memory = m.memory.end();
    return t;
  }
  if (impl_->cuda) {
    impl_->end->record(at::cuda::getCurrentCUDAStream());
    impl_->end->synchronize();
    t.host_us = micros(Clock::now() - impl_->host_start) / n;
    t.device_us = static_cast<double>(impl_->begin->elapsed_time(*impl_->end)) * 1000.0 / n;
    t.issue_us = micros(issued - impl_->host_start) / n;
    t.memory = impl_->memory.end();
    return t;
  }
#endif
  t.host_us = micros(issued - impl_->host_start) / n;
  t.device_us = t.host_us;
  return t;
}

struct IntervalRecorder::Impl {
  bool cuda = false;
  std::vector<std::int64_t> steps;  // steps in the interval ending at mark i (0 for the first)
  std::vector<Clock::time_point> host_marks;
#ifdef GRAPHBENCH_WITH_CUDA
  std::vector<std::unique_ptr<at::cuda::CUDAEvent>> events;
#endif
};

IntervalRecorder::IntervalRecorder(bool cuda) : impl_(std::make_unique<Impl>()) { impl_->cuda = cuda; }
IntervalRecorder::~IntervalRecorder() = default;

void IntervalRecorder::mark(std::int64_t steps_since_last_mark) {
  impl_->steps.push_back(impl_->steps.empty() ? 0 : steps_since_last_mark);
#ifdef GRAPHBENCH_WITH_CUDA
  if (impl_->cuda) {
    impl_->events.push_back(std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault));
    impl_->events.back()->record(at::cuda::getCurrentCUDAStream());
    return;
  }
#endif
  impl_->host_marks.push_back(Clock::now());
}

std::vector<double> IntervalRecorder::per_step_us() {
  std::vector<double> out;
  const std::size_t n = impl_->steps.size();
#ifdef GRAPHBENCH_WITH_CUDA
  if (impl_->cuda) {
    if (n > 0) impl_->events.back()->synchronize();
    for (std::size_t i = 1; i < n; ++i) {
      if (impl_->steps[i] <= 0) continue;
      const double ms = impl_->events[i - 1]->elapsed_time(*impl_->events[i]);
      out.push_back(ms * 1000.0 / static_cast<double>(impl_->steps[i]));
    }
    return out;
  }
#endif
  for (std::size_t i = 1; i < n; ++i) {
    if (impl_->steps[i] <= 0) continue;
    out.push_back(micros(impl_->host_marks[i] - impl_->host_marks[i - 1]) / static_cast<double>(impl_->steps[i]));
  }
  return out;
}

}  // namespace graphbench
