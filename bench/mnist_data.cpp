#include "mnist_data.h"

#include "graphbench/core/errors.h"
#include "graphbench/data/mnist_files.h"

#include <fmt/format.h>

namespace graphbench::mnist {

Split load_split(const std::string& dir, bool train, at::Device device) {
  MnistSplit raw = load_mnist_split(dir, train);
  if (raw.rows != 28 || raw.cols != 28) {
    // The network flattens 20x4x4 = 320 features, which only 28x28 images give.
    throw InputError(fmt::format("{}: images are {}x{}, the MNIST network needs 28x28",
                                 find_mnist_file(dir, train, /*labels=*/false), raw.rows, raw.cols));
  }
  at::Tensor images = at::from_blob(raw.images.data(), {raw.count, 1, raw.rows, raw.cols}, at::kByte)
                          .to(at::kFloat)
                          .div_(255.0)
                          .sub_(0.1307)
                          .div_(0.3081);
  at::Tensor labels = at::from_blob(raw.labels.data(), {raw.count}, at::kByte).to(at::kLong);
  return Split{images.to(device), labels.to(device)};
}

}  // namespace graphbench::mnist
