#include "graphbench/timing/step_timer.h"

#include <chrono>
#include <utility>

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
  Clock::time_point host_start;
#ifdef GRAPHBENCH_WITH_CUDA
  std::unique_ptr<at::cuda::CUDAEvent> begin;
  std::unique_ptr<at::cuda::CUDAEvent> end;
#endif
};

StepTimer::StepTimer(bool cuda) : impl_(std::make_unique<Impl>()) {
  impl_->cuda = cuda;
#ifdef GRAPHBENCH_WITH_CUDA
  if (cuda) {
    impl_->begin = std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault);
    impl_->end = std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault);
  }
#endif
}

StepTimer::~StepTimer() = default;

double StepTimer::now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

void StepTimer::start() {
  synchronize_device(impl_->cuda);
#ifdef GRAPHBENCH_WITH_CUDA
  if (impl_->cuda) impl_->begin->record(at::cuda::getCurrentCUDAStream());
#endif
  impl_->host_start = Clock::now();
}

StepTime StepTimer::stop(std::int64_t steps) {
  StepTime t;
#ifdef GRAPHBENCH_WITH_CUDA
  if (impl_->cuda) {
    impl_->end->record(at::cuda::getCurrentCUDAStream());
    impl_->end->synchronize();
    t.host_us = micros(Clock::now() - impl_->host_start) / static_cast<double>(steps);
    t.device_us = static_cast<double>(impl_->begin->elapsed_time(*impl_->end)) * 1000.0 / static_cast<double>(steps);
    return t;
  }
#endif
  t.host_us = micros(Clock::now() - impl_->host_start) / static_cast<double>(steps);
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
