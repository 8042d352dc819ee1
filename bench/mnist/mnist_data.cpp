#include "mnist/mnist_data.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/data/mnist_files.h"
#include "graphbench/engine/runner/case_timing.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <utility>

namespace graphbench::mnist {

namespace {

constexpr double kMean = 0.1307;
constexpr double kStd = 0.3081;

// Multiplications by reciprocals, as CUDA divides by a scalar anyway: the CPU's floats are the same.
at::Tensor normalised(const at::Tensor& bytes) {
  return bytes.to(at::kFloat).mul_(1.0 / 255.0).sub_(kMean).mul_(1.0 / kStd);
}

// The same into an existing float tensor (its pointer kept); the bytes go to its device as bytes.
void normalise_into(at::Tensor& images, const at::Tensor& bytes) {
  images.copy_(bytes.to(images.device()));
  images.mul_(1.0 / 255.0).sub_(kMean).mul_(1.0 / kStd);
}

void check_28x28(const std::string& dir, bool train, std::int64_t rows, std::int64_t cols) {
  if (rows != 28 || cols != 28) {
    // The network flattens 20x4x4 = 320 features, which only 28x28 images give.
    throw InputError(fmt::format("{}: images are {}x{}, the MNIST network needs 28x28",
                                 find_mnist_file(dir, train, /*labels=*/false), rows, cols));
  }
}

}  // namespace

Split load_split(const std::string& dir, bool train, at::Device device) {
  at::Tensor images;
  at::Tensor labels;
  MnistDestination destination;
  destination.images = [&](std::int64_t count, std::int64_t rows, std::int64_t cols) {
    check_28x28(dir, train, rows, cols);
    images = at::empty({count, 1, rows, cols}, at::kByte);
    return images.data_ptr<std::uint8_t>();
  };
  destination.labels = [&](std::int64_t count) {
    labels = at::empty({count}, at::kByte);
    return labels.data_ptr<std::uint8_t>();
  };
  load_mnist_split_into(dir, train, destination);
  return Split{normalised(images.to(device)), labels.to(device).to(at::kLong)};
}

// One split decoding on its own thread: the header's count first (a promise), the bytes at its end.
struct SplitsLoader::Pending {
  at::Tensor image_bytes;  // uint8 [N, 1, 28, 28], host memory
  at::Tensor label_bytes;  // uint8 [N]
  std::promise<std::int64_t> count;
  std::future<double> done;  // the thread's seconds

  Pending(const std::string& dir, bool train) {
    done = std::async(std::launch::async, [this, dir, train] {
      const auto start = std::chrono::steady_clock::now();
      bool counted = false;
      try {
        MnistDestination destination;
        destination.images = [&](std::int64_t n, std::int64_t rows, std::int64_t cols) {
          check_28x28(dir, train, rows, cols);
          image_bytes = at::empty({n, 1, rows, cols}, at::kByte);
          count.set_value(n);
          counted = true;
          return image_bytes.data_ptr<std::uint8_t>();
        };
        destination.labels = [&](std::int64_t n) {
          label_bytes = at::empty({n}, at::kByte);
          return label_bytes.data_ptr<std::uint8_t>();
        };
        load_mnist_split_into(dir, train, destination);
      } catch (...) {
        if (!counted) count.set_exception(std::current_exception());
        throw;
      }
      return seconds_since(start);
    });
  }
};

SplitsLoader::SplitsLoader(const std::string& dir, at::Device device)
    : train_(std::make_unique<Pending>(dir, /*train=*/true)), test_(std::make_unique<Pending>(dir, /*train=*/false)) {
  const std::int64_t train_count = train_->count.get_future().get();
  const std::int64_t test_count = test_->count.get_future().get();
  auto zeros = [&](std::int64_t n) {
    return Split{at::zeros({n, 1, 28, 28}, at::TensorOptions().device(device)),
                 at::zeros({n}, at::TensorOptions().dtype(at::kLong).device(device))};
  };
  splits_ = Splits{zeros(train_count), zeros(test_count)};
}

// A loader dropped before finish() still waits for its threads (std::async's future joins).
SplitsLoader::~SplitsLoader() = default;

void SplitsLoader::finish() {
  at::NoGradGuard no_grad;
  decode_seconds_ = std::max(train_->done.get(), test_->done.get());
  for (auto [split, pending] : {std::pair{&splits_.train, train_.get()}, std::pair{&splits_.test, test_.get()}}) {
    normalise_into(split->images, pending->image_bytes);
    split->labels.copy_(pending->label_bytes);
  }
}

}  // namespace graphbench::mnist
