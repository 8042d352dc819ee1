// Locating the MNIST data directory and loading one split from its IDX files.
#include "graphbench/core/data/mnist_files.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <zlib.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>

namespace graphbench {

const char* const kMnistDataHint =
    "install Debian's dataset-fashion-mnist package (apt-get install dataset-fashion-mnist) or put "
    "MNIST's four files (train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, "
    "t10k-labels-idx1-ubyte, raw or .gz) in --data-dir or GRAPHBENCH_DATA";

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
        shape = MnistShape{dims[0], dims[1], dims[2]};
        return destination.images(shape.count, shape.rows, shape.cols);
      },
      kMaxMnistFileBytes, /*expected_dims=*/3);
  read_idx_into(
      labels_path,
      [&](const std::vector<std::int64_t>& dims) {
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

// IDX reading through zlib's gz* functions, which read gzipped and raw files alike.
namespace {

constexpr std::uint8_t kIdxTypeUnsignedByte = 0x08;  // the IDX type code: the third byte of the magic

struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};
using GzHandle = std::unique_ptr<gzFile_s, GzCloser>;

// Reads up to `size` bytes; returns how many were read (fewer only at the end of the data).
// Throws on a read error or a corrupt gzip stream.
std::size_t read_some(gzFile file, const std::string& path, std::uint8_t* out, std::size_t size) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::size_t total = 0;
  while (total < size) {
    const auto want = static_cast<unsigned>(std::min(kChunk, size - total));
    errno = 0;
    const int got = gzread(file, out + total, want);
    int errnum = Z_OK;
    const char* message = gzerror(file, &errnum);
    if (got < 0 || (errnum != Z_OK && errnum != Z_STREAM_END)) {
      if (errnum == Z_ERRNO) {
        throw InputError(fmt::format("cannot read IDX file {}: {}", path, std::strerror(errno)));
      }
      // zlib's message starts with the path; keep only the reason.
      std::string reason = message;
      if (reason.rfind(path + ": ", 0) == 0) reason.erase(0, path.size() + 2);
      throw InputError(fmt::format("{}: corrupt gzip stream: {}", path, reason));
    }
    total += static_cast<std::size_t>(got);
    if (static_cast<unsigned>(got) < want) break;  // end of data
  }
  return total;
}

std::string hex_bytes(const std::uint8_t* bytes, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += fmt::format("{}{:02x}", i == 0 ? "" : " ", bytes[i]);
  }
  return out;
}

std::string join_dims(const std::vector<std::int64_t>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) out += fmt::format("{}{}", i == 0 ? "" : "x", dims[i]);
  return out;
}

const char* type_name(std::uint8_t type) {
  switch (type) {
    case 0x08: return "unsigned byte";
    case 0x09: return "signed byte";
    case 0x0B: return "short";
    case 0x0C: return "int";
    case 0x0D: return "float";
    case 0x0E: return "double";
    default: return "unknown";
  }
}

// An open IDX file whose header has been read and checked; the data follows.
class IdxReader {
 public:
  IdxReader(const std::string& path, int expected_dims) : path_(path), expected_dims_(expected_dims) {
    errno = 0;
    file_.reset(gzopen(path.c_str(), "rb"));
    if (!file_) {
      const char* reason = errno != 0 ? std::strerror(errno) : "out of memory";
      throw InputError(fmt::format("cannot open IDX file {}: {}", path, reason));
    }
    // zlib inflates straight into the caller's buffer when a read asks for more than this.
    gzbuffer(file_.get(), 1u << 17);
    read_header();
  }

  const std::vector<std::int64_t>& dims() const { return dims_; }
  std::int64_t data_bytes() const { return data_bytes_; }

  // Reads up to `size` data bytes into `out`; returns how many there were.
  std::size_t read(std::uint8_t* out, std::size_t size) { return read_some(file_.get(), path_, out, size); }

  [[noreturn]] void throw_truncated(std::size_t found) const {
    throw InputError(fmt::format("{}: truncated IDX data: expected {} data bytes for dims {}, found {}", path_,
                                 data_bytes_, join_dims(dims_), found));
  }

  // Throws when anything follows the data.
  void expect_end() {
    std::uint8_t rest[4096];
    std::size_t trailing = 0;
    for (;;) {
      const std::size_t got = read(rest, sizeof rest);
      trailing += got;
      if (got < sizeof rest) break;
    }
    if (trailing != 0) {
      throw InputError(fmt::format("{}: {} trailing bytes after the {} data bytes for dims {}", path_, trailing,
                                   data_bytes_, join_dims(dims_)));
    }
  }

 private:
  void read_header() {
    std::uint8_t magic[4] = {};
    const std::size_t magic_read = read(magic, sizeof magic);
    if (magic_read < sizeof magic) {
      throw InputError(fmt::format("{}: truncated IDX header: expected a 4-byte magic number, found {} bytes",
                                   path_, magic_read));
    }
    if (magic[0] != 0 || magic[1] != 0) {
      throw InputError(fmt::format(
          "{}: not an IDX file: magic number is {}, expected 00 00 then a type byte and the number of "
          "dimensions (00 00 08 03 for MNIST images, 00 00 08 01 for labels)",
          path_, hex_bytes(magic, sizeof magic)));
    }
    const std::uint8_t type = magic[2];
    if (type != kIdxTypeUnsignedByte) {
      throw InputError(fmt::format(
          "{}: unsupported IDX data type 0x{:02x} ({}): only 0x08 (unsigned byte, as in MNIST) is supported",
          path_, type, type_name(type)));
    }
    const std::size_t ndims = magic[3];
    if (expected_dims_ > 0 && ndims != static_cast<std::size_t>(expected_dims_)) {
      const std::uint8_t expected[4] = {0, 0, kIdxTypeUnsignedByte, static_cast<std::uint8_t>(expected_dims_)};
      throw InputError(fmt::format("{}: wrong magic number {}: expected {} ({} dimension{} of unsigned bytes{})", path_,
                                   hex_bytes(magic, sizeof magic), hex_bytes(expected, sizeof expected), expected_dims_,
                                   expected_dims_ == 1 ? "" : "s",
                                   expected_dims_ == 3   ? ": images, count x rows x cols"
                                   : expected_dims_ == 1 ? ": labels"
                                                         : ""));
    }
    if (ndims == 0) {
      throw InputError(fmt::format("{}: IDX header (magic {}) declares 0 dimensions", path_,
                                   hex_bytes(magic, sizeof magic)));
    }

    std::vector<std::uint8_t> header(4 * ndims);
    const std::size_t header_read = read(header.data(), header.size());
    if (header_read < header.size()) {
      throw InputError(fmt::format(
          "{}: truncated IDX header: expected {} bytes of dimension sizes for {} dimensions, found {}", path_,
          header.size(), ndims, header_read));
    }

    dims_.reserve(ndims);
    std::int64_t expected = 1;
    bool overflow = false;
    for (std::size_t d = 0; d < ndims; ++d) {
      const std::uint8_t* p = header.data() + 4 * d;
      const std::int64_t size = (std::int64_t{p[0]} << 24) | (std::int64_t{p[1]} << 16) |
                                (std::int64_t{p[2]} << 8) | std::int64_t{p[3]};
      dims_.push_back(size);
      if (size != 0 && expected > std::numeric_limits<std::int64_t>::max() / size) overflow = true;
      if (!overflow) expected *= size;
    }
    if (overflow) {
      throw InputError(fmt::format("{}: IDX dims {} are too large (more than 2^63 elements)", path_,
                                   join_dims(dims_)));
    }
    data_bytes_ = expected;
  }

  std::string path_;
  int expected_dims_ = 0;  // 0: any
  GzHandle file_;
  std::vector<std::int64_t> dims_;
  std::int64_t data_bytes_ = 0;
};

}  // namespace

std::vector<std::int64_t> read_idx_into(const std::string& path, const IdxDestination& destination,
                                        std::int64_t max_bytes, int expected_dims) {
  IdxReader reader(path, expected_dims);
  if (reader.data_bytes() > max_bytes) {
    throw InputError(fmt::format("{}: IDX dims {} declare {} data bytes, too large for this reader (at most {})",
                                 path, join_dims(reader.dims()), reader.data_bytes(), max_bytes));
  }
  std::uint8_t* out = destination(reader.dims());
  const auto expected = static_cast<std::size_t>(reader.data_bytes());
  const std::size_t found = reader.read(out, expected);
  if (found < expected) reader.throw_truncated(found);
  reader.expect_end();
  return reader.dims();
}

}  // namespace graphbench
