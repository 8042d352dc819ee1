// Finding and loading MNIST-format data (MNIST, Fashion-MNIST): the data directory, then one split's
// images and labels as plain bytes, checked for consistency, read from IDX files raw or gzipped.
// Nothing is ever downloaded.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace graphbench {

// Debian's dataset-fashion-mnist package installs the four gzipped files here.
inline constexpr const char* kDefaultMnistDir = "/usr/share/datasets/fashion-mnist";
// Environment variable naming the data directory when --data-dir is not given.
inline constexpr const char* kMnistDataEnv = "GRAPHBENCH_DATA";
// How to get data, for every "not found" message.
extern const char* const kMnistDataHint;

// The data directory chosen and where the choice came from: "--data-dir", "GRAPHBENCH_DATA" or
// "default", so the tool can print both.
struct MnistDirChoice {
  std::string dir;
  std::string source;
};

// Order: the --data-dir flag, else $GRAPHBENCH_DATA (when set and not empty), else
// kDefaultMnistDir. An empty --data-dir is an InputError. Does not check that the directory exists.
MnistDirChoice locate_mnist_dir(const std::optional<std::string>& data_dir_flag);
std::string resolve_mnist_dir(const std::optional<std::string>& data_dir_flag);

// The IDX file of one split's images or labels in `dir`: the raw name if it exists, else the
// name plus ".gz" if that exists; InputError naming both paths and kMnistDataHint otherwise.
std::string find_mnist_file(const std::string& dir, bool train, bool labels);

// Memory for one split, asked for once each file's header is read and checked: room for
// count x rows x cols image bytes, then for count label bytes. Either may throw to refuse a shape.
struct MnistDestination {
  std::function<std::uint8_t*(std::int64_t count, std::int64_t rows, std::int64_t cols)> images;
  std::function<std::uint8_t*(std::int64_t count)> labels;
};

struct MnistShape {
  std::int64_t count = 0;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
};

// A header declaring more is refused before anything is allocated (MNIST's training images: 47 MB).
inline constexpr std::int64_t kMaxMnistFileBytes = std::int64_t{1} << 30;

// Reads train-* (train) or t10k-* (test) images and labels, raw or gzipped, straight into the
// caller's memory, and checks: images 3-D, labels 1-D, equal counts, every label in 0..9.
MnistShape load_mnist_split_into(const std::string& dir, bool train, const MnistDestination& destination);

// Memory for an IDX file's data: called once the header is read, with its dims; returns room for
// their product of bytes (e.g. a tensor's storage), or throws to refuse the dims.
using IdxDestination = std::function<std::uint8_t*(const std::vector<std::int64_t>& dims)>;

// Reads an IDX file (the MNIST format) of unsigned bytes (type 0x08), raw or gzipped, inflating
// straight into the memory that `destination` returns: no intermediate buffer and no copy. No
// LibTorch here: the caller's memory may be a tensor's. `expected_dims` (0: any): a file with another
// number of dimensions is refused as a wrong magic number before its data is read. Data larger than
// `max_bytes` is refused ("too large") before anything is allocated. InputError naming the path and
// the problem (unreadable, bad magic or type, corrupt gzip stream, truncated, trailing bytes).
// Returns the dims.
std::vector<std::int64_t> read_idx_into(const std::string& path, const IdxDestination& destination,
                                        std::int64_t max_bytes, int expected_dims = 0);

}  // namespace graphbench
