// Locating the MNIST data directory and loading one split from its IDX files.
#include "graphbench/core/data/mnist_files.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/data/idx_file.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace graphbench {

const char* const kMnistDataHint =
    "install Debian's dataset-fashion-mnist package (apt-get install dataset-fashion-mnist) or put "
    "MNIST's four files (train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, "
    "t10k-labels-idx1-ubyte, raw or .gz) in --data-dir or GRAPHBENCH_DATA";

namespace {

std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) out += fmt::format("{}{}", i == 0 ? "" : "x", dims[i]);
  return out;
}

}  // namespace

MnistDirChoice locate_mnist_dir(const std::optional<std::string>& data_dir_flag) {
  if (data_dir_flag) {
    if (data_dir_flag->empty()) throw InputError("--data-dir is empty: give the directory holding the MNIST files");
    return {*data_dir_flag, "--data-dir"};
  }
  if (const char* env = std::getenv(kMnistDataEnv); env != nullptr && *env != '\0') {
    return {env, kMnistDataEnv};
  }
  return {kDefaultMnistDir, "default"};
}

std::string resolve_mnist_dir(const std::optional<std::string>& data_dir_flag) {
  return locate_mnist_dir(data_dir_flag).dir;
}

std::string find_mnist_file(const std::string& dir, bool train, bool labels) {
  const std::string name = fmt::format("{}-{}", train ? "train" : "t10k", labels ? "labels-idx1-ubyte" : "images-idx3-ubyte");
  const std::string raw = (std::filesystem::path(dir) / name).string();
  const std::string gz = raw + ".gz";
  std::error_code ec;
  if (std::filesystem::exists(raw, ec)) return raw;
  if (std::filesystem::exists(gz, ec)) return gz;
  throw InputError(fmt::format("MNIST {} {} not found: tried {} and {}; {}", train ? "training" : "test",
                               labels ? "labels" : "images", raw, gz, kMnistDataHint));
}

MnistShape load_mnist_split_into(const std::string& dir, bool train, const MnistDestination& destination) {
  const std::string images_path = find_mnist_file(dir, train, false);
  const std::string labels_path = find_mnist_file(dir, train, true);
  MnistShape shape;
  std::uint8_t* labels = nullptr;
  read_idx_into(
      images_path,
      [&](const std::vector<std::int64_t>& dims) {
        if (dims.size() != 3) {
          throw InputError(fmt::format("{}: expected a 3-D IDX array of images (count x rows x cols), found {}-D ({})",
                                       images_path, dims.size(), dims_text(dims)));
        }
        shape = MnistShape{dims[0], dims[1], dims[2]};
        return destination.images(shape.count, shape.rows, shape.cols);
      },
      kMaxMnistFileBytes, /*expected_dims=*/3);
  read_idx_into(
      labels_path,
      [&](const std::vector<std::int64_t>& dims) {
        if (dims.size() != 1) {
          throw InputError(fmt::format("{}: expected a 1-D IDX array of labels, found {}-D ({})", labels_path,
                                       dims.size(), dims_text(dims)));
        }
        if (dims[0] != shape.count) {
          throw InputError(fmt::format("{} has {} labels but {} has {} images", labels_path, dims[0], images_path,
                                       shape.count));
        }
        labels = destination.labels(shape.count);
        return labels;
      },
      kMaxMnistFileBytes, /*expected_dims=*/1);
  for (std::int64_t i = 0; i < shape.count; ++i) {
    if (labels[i] > 9) {
      throw InputError(fmt::format("{}: label {} at index {} is outside 0..9", labels_path, int{labels[i]}, i));
    }
  }
  return shape;
}

}  // namespace graphbench
